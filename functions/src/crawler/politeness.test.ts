import { describe, expect, it } from 'vitest';
import { HostScheduler } from './politeness';

describe('HostScheduler', () => {
  it('spaces requests to one host by the delay, hosts independently, and survives a snapshot', () => {
    let now = 1_000;
    const scheduler = new HostScheduler(500, {}, () => now);
    expect(scheduler.readyIn('a')).toBe(0);
    scheduler.reserve('a');
    expect(scheduler.readyIn('a')).toBe(500);
    expect(scheduler.readyIn('b')).toBe(0);
    now += 200;
    const resumed = new HostScheduler(500, scheduler.snapshot(), () => now);
    expect(resumed.readyIn('a')).toBe(300);
    now += 300;
    expect(resumed.readyIn('a')).toBe(0);
    expect(resumed.snapshot()).toEqual({});
  });

  it('never waits without a delay', () => {
    const scheduler = new HostScheduler(0);
    scheduler.reserve('a');
    expect(scheduler.readyIn('a')).toBe(0);
  });

  it.each(['constructor', '__proto__', 'toString'])('schedules a host named %s like any other', (host) => {
    let now = 1_000;
    const scheduler = new HostScheduler(500, {}, () => now);
    expect(scheduler.readyIn(host)).toBe(0);
    scheduler.reserve(host);
    expect(scheduler.readyIn(host)).toBe(500);
    // Through the crawl state's JSON and back.
    const state = JSON.parse(JSON.stringify(scheduler.snapshot()));
    expect(Object.keys(state)).toEqual([host]);
    now += 200;
    expect(new HostScheduler(500, state, () => now).readyIn(host)).toBe(300);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

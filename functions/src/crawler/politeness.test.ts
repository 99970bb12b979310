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
});

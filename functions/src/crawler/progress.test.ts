import { describe, expect, it } from 'vitest';
import { latestProgressSender } from './progress';

/** A send that takes until released, recording what it was given. */
function slowSend() {
  const sent: number[] = [];
  const releases: Array<() => void> = [];
  const send = (n: number) =>
    new Promise<void>((resolve) => {
      sent.push(n);
      releases.push(resolve);
    });
  const releaseNext = async () => {
    releases.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { sent, send, releaseNext };
}

describe('latestProgressSender', () => {
  it('sends one report at a time and, after a slow send, only the latest of those made meanwhile', async () => {
    const s = slowSend();
    const sender = latestProgressSender(s.send);
    sender.push(10);
    sender.push(20);
    sender.push(30);
    sender.push(40);
    expect(s.sent).toEqual([10]);
    await s.releaseNext();
    expect(s.sent).toEqual([10, 40]);
    let flushed = false;
    void sender.flushed().then(() => {
      flushed = true;
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(flushed).toBe(false);
    await s.releaseNext();
    expect(flushed).toBe(true);
    expect(s.sent).toEqual([10, 40]);
  });

  it('carries on after a failed send, and starts again once idle', async () => {
    const sent: number[] = [];
    const sender = latestProgressSender(async (n: number) => {
      sent.push(n);
      if (n === 1) throw new Error('store unavailable');
    });
    sender.push(1);
    sender.push(2);
    await sender.flushed();
    expect(sent).toEqual([1, 2]);
    sender.push(3);
    await sender.flushed();
    expect(sent).toEqual([1, 2, 3]);
    await expect(sender.flushed()).resolves.toBeUndefined();
  });
});

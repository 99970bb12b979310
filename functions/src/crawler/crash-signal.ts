// A crashed renderer answers no DevTools call: every in-page step still waiting (the load event, quiet, the
// scroll, collecting) would wait out its own time limit, some 45 s for one visit, while the tab could already
// be replaced. The tab notes its crash here, and the steps waiting on that session stop at once.
import type { CDPSession } from 'puppeteer-core';

interface Crash {
  promise: Promise<void>;
  resolve: () => void;
}

const crashes = new WeakMap<CDPSession, Crash>();

function crashOf(client: CDPSession): Crash {
  let crash = crashes.get(client);
  if (!crash) {
    let resolve = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    crash = { promise, resolve };
    crashes.set(client, crash);
  }
  return crash;
}

/** Resolves when the page behind `client` crashed (never, if it does not). */
export function whenCrashed(client: CDPSession): Promise<void> {
  return crashOf(client).promise;
}

/** The page behind `client` crashed: steps waiting on it give up. */
export function noteCrash(client: CDPSession): void {
  crashOf(client).resolve();
}

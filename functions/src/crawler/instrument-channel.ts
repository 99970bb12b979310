// The channel between the instrument script in the page (instrument.ts) and the crawler: a CDP binding the
// script sends its batches through, and a flush function the crawler calls to collect what is pending.
// Both have random names per tab, so a crawled page can neither guess nor call them.
import { randomBytes } from 'node:crypto';
import type { CDPSession } from 'puppeteer-core';
import { type InstrumentItem, instrumentSource, parseInstrumentBatch } from './instrument';

export class InstrumentChannel {
  /** What the page reported since the visit started, in order. */
  items: InstrumentItem[] = [];
  private readonly flushName = `__cspCrawlerFlush_${randomBytes(6).toString('hex')}`;
  private readonly bindingName = `__cspCrawlerSend_${randomBytes(6).toString('hex')}`;

  /** Receives the batches sent on `client` (Runtime must be enabled there for them to arrive). */
  listen(client: CDPSession): void {
    client.on('Runtime.bindingCalled', (event: { name: string; payload: string }) => {
      if (event.name === this.bindingName) this.onBatch(event.payload);
    });
  }

  /** The commands that put the script into every new document (Page must be enabled for it to run). */
  install(client: CDPSession, policy: string): Promise<unknown>[] {
    return [
      client.send('Runtime.addBinding', { name: this.bindingName }),
      client.send('Page.addScriptToEvaluateOnNewDocument', {
        source: instrumentSource({ binding: this.bindingName, flushName: this.flushName, policy }),
      }),
    ];
  }

  /** An expression that flushes what the page holds (and returns its links when `withLinks`). */
  flushExpression(withLinks: boolean): string {
    return `(function () { var f = window[${JSON.stringify(this.flushName)}]; return typeof f === 'function' ? f(${withLinks}) : []; })()`;
  }

  /**
   * An expression that resolves to true once the page (its main frame) was quiet for `windowMs` (no DOM
   * change, animation frame or short timer), false after `maxMs`; true at once where the instrument is
   * missing (a document it could not run in has nothing to wait for that it could see).
   */
  quietExpression(windowMs: number, maxMs: number): string {
    return `(function () { var f = window[${JSON.stringify(this.flushName)}]; return f && typeof f.quiet === 'function' ? f.quiet(${Math.round(windowMs)}, ${Math.max(0, Math.round(maxMs))}) : true; })()`;
  }

  /** An expression naming the instrument's helpers for the interaction script (undefined where missing). */
  helpersExpression(): string {
    return `window[${JSON.stringify(this.flushName)}]`;
  }

  private onBatch(payload: string): void {
    this.items.push(...parseInstrumentBatch(payload));
  }
}

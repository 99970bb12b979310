// What a tab's targets request, from CDP Network events: the page's own session and every worker attached
// to it (worker requests are governed by the worker's own policy and raise no violation in the page, so
// only the network shows them), plus shared workers, which belong to no page. The recorder also tracks
// the requests in flight, which tells the settle steps when the network is idle.
import type { Browser, CDPSession } from 'puppeteer-core';
import type { NetworkRecord } from './classify';

/** Long-lived requests that never end on their own; they must not hold "network idle" back. */
const STREAMING_TYPES = new Set(['WebSocket', 'EventSource']);

interface RequestEvent {
  requestId: string;
  type?: string;
  documentURL: string;
  request: { url: string };
}

export interface AttachedEvent {
  sessionId: string;
  targetInfo: { type: string; url: string };
}

interface NetworkSink {
  request(id: string, record: NetworkRecord): void;
  done(id: string): void;
  websocket(url: string): void;
}

/** Target types whose requests only their own session sees. */
export function isWorkerType(type: string): type is 'worker' | 'shared_worker' | 'service_worker' {
  return type === 'worker' || type === 'shared_worker' || type === 'service_worker';
}

/** Subscribes to one target's Network events (the page's or a worker's). */
function recordNetwork(
  session: CDPSession,
  context: NetworkRecord['context'],
  workerUrl: string | null,
  sink: NetworkSink,
): void {
  session.on('Network.requestWillBeSent', (event: RequestEvent) => {
    sink.request(`${context}:${event.requestId}`, {
      type: event.type ?? 'Other',
      url: event.request.url,
      context,
      documentUrl: event.documentURL || workerUrl || '',
    });
  });
  const done = (event: { requestId: string }) => sink.done(`${context}:${event.requestId}`);
  // Headers are enough: what a response leads to starts after them, and a body nobody reads (fetch()
  // without .text()) never "finishes".
  session.on('Network.responseReceived', done);
  session.on('Network.loadingFinished', done);
  session.on('Network.loadingFailed', done);
  session.on('Network.webSocketCreated', (event: { url: string }) => sink.websocket(event.url));
}

/**
 * Resumes a freshly auto-attached target after turning on what we record there. The commands are sent
 * before the resume and not awaited one by one: a paused service worker answers Network.enable only once
 * it runs, but commands apply in order, so recording starts before its first request.
 */
export async function startRecording(child: CDPSession, type: string, nested: boolean): Promise<void> {
  const commands: Promise<unknown>[] = [];
  if (isWorkerType(type)) {
    commands.push(child.send('Network.enable', { maxPostDataSize: 0 }));
    // Dedicated and shared workers can start nested workers; a service worker cannot (and never answers).
    if (nested && type !== 'service_worker') {
      commands.push(
        child.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }),
      );
    }
  }
  commands.push(child.send('Runtime.runIfWaitingForDebugger'));
  // The target may be gone already; nothing to record then.
  await Promise.all(commands.map((c) => c.catch(() => undefined)));
}

/** One tab's requests during a visit (its page and its workers), and the ones still in flight. */
export class NetworkRecorder {
  records: NetworkRecord[] = [];
  /** When a request was last sent or answered (epoch ms). */
  lastActivity = Date.now();
  private inflight = new Map<string, number>();

  /** `currentPage` names the document a page's WebSocket belongs to. */
  constructor(private readonly currentPage: () => string) {}

  /** Starts a visit: nothing recorded, nothing in flight. */
  reset(): void {
    this.records = [];
    this.inflight.clear();
    this.lastActivity = Date.now();
  }

  /** Requests in flight that started less than `stallMs` ago (older ones no longer hold idle back). */
  pending(now: number, stallMs: number): number {
    let pending = 0;
    for (const startedAt of this.inflight.values()) if (now - startedAt < stallMs) pending++;
    return pending;
  }

  watch(session: CDPSession, context: NetworkRecord['context'], workerUrl: string | null): void {
    recordNetwork(session, context, workerUrl, {
      request: (id, record) => {
        this.lastActivity = Date.now();
        this.records.push(record);
        // A worker's own script is requested for a "document" that is the script itself; its response is
        // reported to the worker's target, never here.
        const workerScript =
          context === 'page' && record.documentUrl === record.url && record.type !== 'Document';
        if (!STREAMING_TYPES.has(record.type) && !workerScript) this.inflight.set(id, this.lastActivity);
      },
      done: (id) => {
        this.lastActivity = Date.now();
        this.inflight.delete(id);
      },
      websocket: (url) => {
        this.records.push({ type: 'WebSocket', url, context, documentUrl: workerUrl ?? this.currentPage() });
      },
    });
  }
}

/**
 * Shared workers belong to no page, so a page's auto-attach never sees them: a browser-level auto-attach
 * does, and their requests go to the next page that collects (any page of the site serves: the policy is
 * the site's).
 */
export class SharedWorkerWatcher {
  private records: NetworkRecord[] = [];
  private constructor(private readonly session: CDPSession) {}

  static async start(browser: Browser): Promise<SharedWorkerWatcher> {
    const session = await browser.target().createCDPSession();
    const watcher = new SharedWorkerWatcher(session);
    session.on('Target.attachedToTarget', (event: AttachedEvent) => {
      const child = session.connection()?.session(event.sessionId);
      if (!child) return;
      recordNetwork(child, 'shared_worker', event.targetInfo.url, {
        request: (_id, record) => watcher.records.push(record),
        done: () => {},
        websocket: (url) =>
          watcher.records.push({
            type: 'WebSocket',
            url,
            context: 'shared_worker',
            documentUrl: event.targetInfo.url,
          }),
      });
      void startRecording(child, event.targetInfo.type, false);
    });
    await session.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
      filter: [{ type: 'shared_worker', exclude: false }, { exclude: true }],
    });
    return watcher;
  }

  drain(): NetworkRecord[] {
    const out = this.records;
    this.records = [];
    return out;
  }

  async close(): Promise<void> {
    await this.session.detach().catch(() => {});
  }
}

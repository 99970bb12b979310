// The crawl engine: discovery, then one browser with several tabs working through the frontier breadth
// first, honouring crawlDelay per host, until maxPages, an empty frontier — or the deadline, in which case
// it returns its state (plain JSON) so the next invocation continues where this one stopped.
import { stageBands, stagePercent, UNKNOWN_SITE_PAGES } from '@csp/shared/analyses/progress-bands';
import type { CrawlArtifact } from '@csp/shared/csp/artifact';
import { addPageToTally } from '@csp/shared/trusted-types/dry-run';
import { boundedUrl } from '@csp/shared/watch/run-snapshot';
import type { BlobStore } from '../blobs/blob-store';
import {
  type BrowserSession,
  type CapturedPage,
  type TabOptions,
  withBrowserSession,
} from './browser-session';
import { discover, initialOrigin } from './discovery';
import { addIconLinks, checkFavicons, FAVICON_CHECK_BUDGET_MS } from './favicons';
import { Frontier } from './frontier';
import { type CheckAddress, createTargetGuard } from './guard';
import { HostScheduler } from './politeness';
import { type CrawlPhase, latestProgressSender } from './progress';
import { rerenderPages, rerenderSample } from './re-render';
import { CAPTURE_POLICY, DENY_ALL_POLICY } from './request-interception';
import type { SettleOptions } from './settle';
import {
  type CrawlJob,
  type CrawlState,
  crawlJobSchema,
  crawlStateSchema,
  type FrontierItem,
  type ParsedCrawlJob,
} from './state';
import { isSameOrigin, normalizeUrl, originOf } from './url-normalize';

export interface CrawlProgress {
  /** What the crawl is doing: discovering, crawling the pages, or loading a sample again (stability). */
  phase: CrawlPhase;
  /** The page being crawled (the last one started). */
  currentPage: string | null;
  /** Overall percent of the analysis (see progress.ts), never going back. */
  progress: number;
  /** Pages planned: visited + queued, at most maxPages. */
  totalPages: number;
  pagesDone: number;
}

export interface RunCrawlOptions {
  /** Epoch ms by which this run must have returned; pages are not started when they could overrun it. */
  deadline: number;
  /** Loopback/private targets may be crawled (local mode). Off in AWS. */
  allowPrivateTargets: boolean;
  onProgress?: (progress: CrawlProgress) => void | Promise<void>;
  /** When given (with checkpointKey), the state is checkpointed there every few pages. */
  blobStore?: BlobStore;
  /** The analysis' checkpoint (see checkpointKey): the only blob a run reads back. */
  checkpointKey?: string;
  /** Tabs working at once. */
  concurrency?: number;
  settle?: Partial<SettleOptions>;
  /** Replaces the SSRF address check (tests narrow it; production never sets it). */
  checkAddress?: CheckAddress;
  /** The product's own ports (local mode), never crawled on this machine. */
  ownPorts?: readonly number[];
  /** Time kept free before the deadline for a page in progress (default: a page's worst case). */
  pageReserveMs?: number;
  /** Act on every page after load, within this budget (ms); 0 turns interaction off. */
  interactionBudgetMs?: number;
  /** Load a sample of pages again to find inline code that changes per load (default on). */
  rerender?: boolean;
  /**
   * Record what enforcing Trusted Types would block (default on). Off only to show that the dry run
   * changes nothing else the crawl records.
   */
  trustedTypesDryRun?: boolean;
}

export interface RunCrawlResult {
  state: CrawlState;
  /** The crawl is finished (frontier empty or maxPages reached); otherwise continue with `state`. */
  done: boolean;
  /** When not done: wait this long before continuing (a crawl delay longer than the time left). */
  resumeAfterMs?: number;
}

/** Worst case of one page: navigation timeout + load wait + idle waits + acting + collection. */
const PAGE_RESERVE_MS = 45_000;
const CHECKPOINT_EVERY = 25;
/** 5 tabs: measured best on 2 cores (see README's benchmark figures; 6 tabs pass 1.5 GB). */
const DEFAULT_CONCURRENCY = 5;

/**
 * Where an analysis' crawl state is kept between runs. Named by the analysis' checkpoint id, a random value
 * kept in its item and handed to each of its runs, not by its id: the crawler may not list the bucket, so a
 * run cannot find, read or overwrite another analysis' state (see README, "Crawler confinement").
 */
export function checkpointKey(checkpointId: string): string {
  return `crawls/${checkpointId}/state.json`;
}

export function initialCrawlState(job: ParsedCrawlJob, now = new Date()): CrawlState {
  return crawlStateSchema.parse({
    version: 1,
    origin: initialOrigin(job) ?? '',
    discovered: false,
    frontier: [],
    seen: [],
    pages: [],
    errors: [],
    pagesDone: 0,
    progress: 0,
    hostNextAt: {},
    offSite: 0,
    runs: 0,
    startedAt: now.toISOString(),
  });
}

/** The artifact policy generation reads (the crawl's product). */
export function crawlArtifact(state: CrawlState): CrawlArtifact {
  return {
    origin: state.origin,
    pages: state.pages,
    errors: state.errors,
    ...(state.favicons ? { favicons: state.favicons } : {}),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isHtml(contentType: string): boolean {
  return contentType === '' || /^(text\/html|application\/xhtml\+xml)/i.test(contentType.trim());
}

export async function runCrawl(
  jobInput: CrawlJob,
  stateInput: CrawlState | null,
  options: RunCrawlOptions,
): Promise<RunCrawlResult> {
  const job = crawlJobSchema.parse(jobInput);
  const state: CrawlState = stateInput ? structuredClone(stateInput) : initialCrawlState(job);
  state.runs += 1;
  if (!state.origin) {
    state.errors.push('Nothing to crawl: no valid http(s) URL in the request.');
    return { state, done: true };
  }
  const guard = createTargetGuard({
    allowPrivateTargets: options.allowPrivateTargets,
    check: options.checkAddress,
    ownPorts: options.ownPorts,
  });
  const scheduler = new HostScheduler(job.crawlDelay, state.hostNextAt);
  const frontier = new Frontier(state, job.maxPages);
  const refusedHosts = new Set<string>();
  const addError = (message: string) => {
    if (!state.errors.includes(message)) state.errors.push(message);
  };
  const progress = latestProgressSender(async (snapshot: CrawlProgress) => options.onProgress?.(snapshot));
  const report = (phase: CrawlPhase, currentPage: string | null, inFlight: number) => {
    const finished = state.pagesDone - inFlight;
    // Until a page is done (its links known) the site's size is a guess, not the one page queued.
    const planned = Math.max(
      1,
      frontier.planned,
      finished > 0 ? 0 : Math.min(job.maxPages, UNKNOWN_SITE_PAGES),
    );
    // A page being visited counts half: pages visited in parallel move the bar when they start, not
    // only all at once when they end.
    let fraction = (finished + inFlight / 2) / planned;
    if (phase === 'rerendering') {
      const total = state.rerenders.length + (state.rerenderQueue?.length ?? 0);
      fraction = total === 0 ? 1 : (state.rerenders.length - inFlight / 2) / total;
    } else if (phase === 'discovering') fraction = 0;
    // The bands follow the pages found so far: a crawl that finds more pages widens its own band.
    const bands = stageBands(planned, {
      rerender: options.rerender ?? true,
      crawlDelayMs: job.crawlDelay,
    });
    state.progress = Math.max(state.progress, stagePercent(bands, phase, fraction));
    const snapshot: CrawlProgress = {
      phase,
      currentPage,
      progress: state.progress,
      totalPages: frontier.planned,
      pagesDone: finished,
    };
    if (options.onProgress) progress.push(snapshot);
  };
  const save = () => {
    frontier.sync();
    state.hostNextAt = scheduler.snapshot();
  };

  if (!state.discovered) {
    report('discovering', null, 0);
    await discover({ job, state, frontier, guard, scheduler, refusedHosts, deadline: options.deadline });
    state.discovered = true;
    report('crawling', null, 0);
  }

  const reserve = options.pageReserveMs ?? PAGE_RESERVE_MS;
  const crawlFinished = () => frontier.size === 0 || state.pagesDone >= job.maxPages;
  const rerenderOn = options.rerender ?? true;
  const rerenderFinished = () =>
    !rerenderOn || (state.rerenderQueue !== null && state.rerenderQueue.length === 0);
  let resumeAfterMs: number | undefined;
  const tabOptions: TabOptions = {
    siteOrigin: () => state.origin,
    policy: options.trustedTypesDryRun === false ? DENY_ALL_POLICY : CAPTURE_POLICY,
    settle: options.settle,
    ...(options.interactionBudgetMs !== undefined
      ? { interactionBudgetMs: options.interactionBudgetMs }
      : {}),
  };

  const needsBrowser = !crawlFinished() || !rerenderFinished();
  if (needsBrowser && Date.now() + reserve < options.deadline) {
    await withBrowserSession(
      {
        allowPrivateTargets: options.allowPrivateTargets,
        checkAddress: options.checkAddress,
        ownPorts: options.ownPorts,
        userAgent: job.userAgent,
      },
      async (session) => {
        if (!crawlFinished()) {
          resumeAfterMs = await crawlPages(session);
        }
        if (crawlFinished() && rerenderOn && resumeAfterMs === undefined) {
          state.rerenderQueue ??= rerenderSample(state);
          await rerenderPages(session, state, {
            deadline: options.deadline,
            reserve,
            concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
            tabOptions,
            report: (url, inFlight) => report('rerendering', url, inFlight),
          });
        }
      },
    );
  }

  /** The crawl proper: tabs working through the frontier. Returns a wait when every host is delaying. */
  async function crawlPages(session: BrowserSession): Promise<number | undefined> {
    let resumeAfter: number | undefined;
    let inFlight = 0;
    let checkpointAt = state.pagesDone;
    let checkpointing: Promise<void> = Promise.resolve();

    const record = (item: FrontierItem, result: CapturedPage) => {
      for (const message of session.proxy.blocked.values()) addError(message);
      state.stats.interactionMs += result.interactionMs;
      state.stats.quietMs += result.quietMs;
      state.stats.writesAnswered += result.writes.length;
      state.stats.navigationsBlocked += result.navigations.length;
      if (result.error && result.status === 0) {
        addError(result.error);
        // The error names the URL; the list shows it beside the URL, so only the why.
        const reason = result.error.startsWith(`${item.url}: `)
          ? result.error.slice(item.url.length + 2)
          : result.error;
        state.failures.push({ url: item.url, reason });
        if (result.refused) {
          const host = new URL(item.key).host;
          refusedHosts.add(host);
          frontier.dropHost(host);
        }
        return;
      }
      const finalOrigin = originOf(result.finalUrl);
      if (!isSameOrigin(result.finalUrl, state.origin)) {
        addError(`${item.url}: redirected to ${finalOrigin ?? result.finalUrl}, another site; not analysed`);
        state.failures.push({
          url: item.url,
          reason: `Redirected to ${finalOrigin ?? result.finalUrl}, another site`,
        });
        return;
      }
      if (normalizeUrl(result.finalUrl) !== item.key) {
        // A redirect inside the site: its target is this page; do not visit it again.
        const alreadyCaptured = state.pages.some(
          (p) => normalizeUrl(p.finalUrl) === normalizeUrl(result.finalUrl),
        );
        frontier.markVisited(result.finalUrl);
        if (alreadyCaptured) return;
      }
      if (!isHtml(result.contentType)) {
        // An error that is not a page (a plain-text 404 of the URL list) is still a URL that failed.
        if (result.status >= 400) {
          addError(`${item.url}: HTTP ${result.status}`);
          state.failures.push({ url: item.url, reason: `HTTP ${result.status}`, status: result.status });
        }
        return;
      }
      state.pages.push({
        url: item.url,
        finalUrl: result.finalUrl,
        status: result.status,
        observations: result.observations,
        ...(result.originalPolicy ? { originalPolicy: result.originalPolicy } : {}),
        ...(result.incomplete ? { incomplete: result.incomplete } : {}),
      });
      if (result.watch) state.watch.push({ page: boundedUrl(result.finalUrl), ...result.watch });
      if (result.error) addError(result.error);
      addIconLinks(state, result.icons);
      if (result.status >= 400) {
        addError(`${item.url}: HTTP ${result.status}`);
        return;
      }
      state.trustedTypes = addPageToTally(state.trustedTypes, {
        page: result.finalUrl,
        ...result.trustedTypes,
      });
      // Links, and where acting on the page tried to go (blocked there, crawled here if same-site).
      for (const link of [...result.links, ...result.navigations]) frontier.add(link, 'link', item.depth + 1);
    };

    const worker = async () => {
      // Only the crawl proper records scripts for the watch (the re-render and verification need none).
      const tab = session.tabWorker({ ...tabOptions, recordScripts: true });
      try {
        for (;;) {
          if (state.pagesDone >= job.maxPages) return;
          if (Date.now() + reserve >= options.deadline) return;
          const item = frontier.take((host) => scheduler.readyIn(host) === 0);
          if (!item) {
            if (frontier.size === 0) {
              if (inFlight === 0) return;
              await sleep(20);
              continue;
            }
            // Every queued host is waiting for its crawl delay.
            const hosts = new Set(state.frontier.map((i) => new URL(i.key).host));
            const wait = Math.min(...[...hosts].map((h) => scheduler.readyIn(h)));
            if (Date.now() + wait + reserve >= options.deadline) {
              resumeAfter = wait;
              return;
            }
            await sleep(Math.min(wait, 100));
            continue;
          }
          scheduler.reserve(new URL(item.key).host);
          state.pagesDone += 1;
          inFlight += 1;
          report('crawling', item.url, inFlight);
          let result: CapturedPage;
          try {
            result = await tab.visit(item.url);
          } finally {
            inFlight -= 1;
          }
          record(item, result);
          report('crawling', item.url, inFlight);
          if (
            state.pagesDone - checkpointAt >= CHECKPOINT_EVERY &&
            options.blobStore &&
            options.checkpointKey
          ) {
            checkpointAt = state.pagesDone;
            save();
            const body = JSON.stringify(state);
            const store = options.blobStore;
            const key = options.checkpointKey;
            checkpointing = checkpointing
              .then(() => store.put(key, body, 'application/json'))
              .catch(() => {});
          }
        }
      } finally {
        await tab.close();
      }
    };

    const concurrency = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, job.maxPages));
    await Promise.all(Array.from({ length: concurrency }, () => worker()));
    await checkpointing;
    return resumeAfter;
  }

  const done = crawlFinished() && rerenderFinished();
  if (done && state.favicons === undefined && Date.now() < options.deadline) {
    state.favicons = await checkFavicons({
      origin: state.origin,
      links: state.iconLinks,
      guard,
      userAgent: job.userAgent,
      deadline: Math.min(options.deadline, Date.now() + FAVICON_CHECK_BUDGET_MS),
      beforeRequest: (url) => scheduler.wait(url.host),
    });
  }
  if (crawlFinished()) {
    state.frontier = [];
    if (done && state.offSite > 0) {
      addError(
        `${state.offSite} listed URL(s) outside ${state.origin} were not crawled (only that origin is analysed).`,
      );
    }
  }
  save();
  report(crawlFinished() && rerenderOn ? 'rerendering' : 'crawling', null, 0);
  await progress.flushed();
  return { state, done, ...(done || resumeAfterMs === undefined ? {} : { resumeAfterMs }) };
}

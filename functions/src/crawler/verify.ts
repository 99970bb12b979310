// Self-verification: a policy we hand out is one we have tried. A sample of the crawled pages is loaded
// again with the generated policy served as report-only (the same Fetch interception as the crawl), and
// every violation of it is counted.
import { closeBrowser, launchBrowser } from './browser';
import { type SettleOptions, SharedWorkerWatcher, TabCapture } from './capture';
import { type CheckAddress, createTargetGuard } from './guard';
import { startProxy } from './proxy';

export interface Verification {
  pagesChecked: number;
  violations: number;
  /** A few violations, readable: "script-src-elem https://cdn.example/x.js on https://site/page". */
  samples: string[];
}

export interface VerifyOptions {
  /** Crawled pages (final URLs) to choose from. */
  pages: string[];
  /** Header value of the generated policy. */
  policy: string;
  siteOrigin: string;
  allowPrivateTargets: boolean;
  userAgent?: string;
  /** Pages to check: at least this many, or all when fewer were crawled. */
  sampleSize?: number;
  concurrency?: number;
  settle?: Partial<SettleOptions>;
  checkAddress?: CheckAddress;
  /** Stop starting pages after this epoch ms (the Lambda deadline). */
  deadline?: number;
}

const MAX_SAMPLES = 20;

/** `count` pages spread over the crawl (first page first), or all of them. */
export function samplePages(pages: readonly string[], count = 10): string[] {
  const unique = [...new Set(pages)];
  if (unique.length <= count) return unique;
  const step = unique.length / count;
  return Array.from({ length: count }, (_, i) => unique[Math.floor(i * step)]!);
}

/**
 * The policy as the verification serves it: reporting directives dropped, so trying a policy does not send
 * reports to the product's own endpoint (violations are counted in the page instead).
 */
export function policyForVerification(policy: string): string {
  return policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !/^(report-uri|report-to)(\s|$)/i.test(d))
    .join('; ');
}

export async function verifyPolicy(options: VerifyOptions): Promise<Verification> {
  const pages = samplePages(options.pages, options.sampleSize ?? 10);
  if (pages.length === 0) return { pagesChecked: 0, violations: 0, samples: [] };
  const policy = policyForVerification(options.policy);
  const guard = createTargetGuard({
    allowPrivateTargets: options.allowPrivateTargets,
    check: options.checkAddress,
  });
  const proxy = await startProxy({ guard });
  const seen = new Set<string>();
  const samples: string[] = [];
  let pagesChecked = 0;
  try {
    const browser = await launchBrowser({ proxyUrl: proxy.url, userAgent: options.userAgent });
    try {
      const sharedWorkers = await SharedWorkerWatcher.start(browser);
      const queue = [...pages];
      const worker = async () => {
        const tab = await TabCapture.open(browser, {
          siteOrigin: () => options.siteOrigin,
          policy,
          blocked: proxy.blocked,
          sharedWorkers,
          settle: options.settle,
        });
        try {
          for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
            if (options.deadline !== undefined && Date.now() > options.deadline) return;
            const result = await tab.visit(url);
            if (result.error && result.status === 0) continue;
            pagesChecked += 1;
            for (const v of result.violations) {
              if (v.k !== 'violation') continue;
              const text = `${v.directive} ${v.blocked}${v.sample ? ` "${v.sample}"` : ''} on ${url}`;
              if (seen.has(text)) continue;
              seen.add(text);
              if (samples.length < MAX_SAMPLES) samples.push(text);
            }
          }
        } finally {
          await tab.close();
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(options.concurrency ?? 4, pages.length) }, () => worker()),
      );
      await sharedWorkers.close();
    } finally {
      await closeBrowser(browser);
    }
  } finally {
    await proxy.close();
  }
  return { pagesChecked, violations: seen.size, samples };
}

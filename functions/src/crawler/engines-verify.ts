// Self-verification in every engine at hand: Chromium always, Firefox too when the crawler has it
// (firefox.ts). Both try the same policy on the same pages at the same time, and what either saw comes back
// as one pass, so the analysis refines the policy once from both. Each engine's last pass is recorded, or
// why an engine could not be used, so the analysis says "Verified in Chromium and Firefox" only when true.
import type { EngineVerification } from '@csp/shared/schemas/analysis';
import type { SecondEngine } from './firefox';
import { type FirefoxKeeper, FirefoxSession } from './firefox-verify';
import { type Verification, type VerifyOptions, verifyPolicy } from './verify';

export class EngineVerifier {
  private firefox: Promise<FirefoxSession | null>;
  /** The Firefox was handed in (kept by `npm start` or by a test file): it is not ours to close. */
  private readonly borrowed: boolean = false;
  private firefoxProblem: string | undefined;
  private firefoxVersion: string | undefined;
  private lastChromium: Verification | null = null;
  private lastFirefox: Verification | null = null;
  /** Pages Firefox checks in the next pass: null for the whole sample (the first pass). */
  private firefoxRecheck: string[] | null = null;
  /** Pages of the sample Firefox checked in its first pass. */
  private firefoxPagesChecked = 0;

  /** Starts Firefox at once (it takes seconds), while the caller prepares the first pass. */
  constructor(
    secondEngine: SecondEngine | { session: FirefoxSession } | { keeper: FirefoxKeeper },
    session: Pick<VerifyOptions, 'allowPrivateTargets' | 'checkAddress' | 'ownPorts'>,
  ) {
    if ('session' in secondEngine || 'keeper' in secondEngine) {
      // A Firefox kept by the process (npm start) or a test: not ours to close.
      this.borrowed = true;
      const session =
        'session' in secondEngine ? Promise.resolve(secondEngine.session) : secondEngine.keeper.session();
      this.firefox = session.then(
        async (running) => {
          this.firefoxVersion = await running.version().catch(() => undefined);
          return running;
        },
        (error: unknown) => {
          this.firefoxProblem = `Firefox did not start: ${message(error)}`;
          return null;
        },
      );
      return;
    }
    if ('unavailable' in secondEngine) {
      this.firefoxProblem = secondEngine.unavailable;
      this.firefox = Promise.resolve(null);
      return;
    }
    this.firefox = FirefoxSession.start(secondEngine.executablePath, session).then(
      async (started) => {
        this.firefoxVersion = await started.version().catch(() => undefined);
        return started;
      },
      (error: unknown) => {
        this.firefoxProblem = `Firefox did not start: ${message(error)}`;
        return null;
      },
    );
  }

  /** One pass in every engine; violations of both, pages with violations of both (for refinement). */
  async verify(options: VerifyOptions): Promise<Verification> {
    // Firefox's second pass checks again only the pages its first could not pass: a refined policy only
    // adds what a pass blocked, and Chromium checks the whole sample again. Firefox is the costlier engine
    // (it doubles the CPU work of verification on a small machine), and this keeps its share small.
    const recheck = this.firefoxRecheck;
    // Progress of the pass: both engines' pages, as they are done (Firefox's share once it takes part).
    // Firefox counts from the start when it is expected to take part: counted only once it had started,
    // Chromium's pages alone would fill the bar and the figure would stand still while Firefox works.
    const done = { chromium: 0, firefox: 0 };
    let firefoxTakesPart = this.firefoxProblem === undefined && recheck?.length !== 0;
    const report = () =>
      options.onProgress?.(firefoxTakesPart ? (done.chromium + done.firefox) / 2 : done.chromium);
    const firefoxPass = this.firefox.then((session) => {
      if (recheck?.length === 0 || !session) {
        firefoxTakesPart = false;
        void report();
        return null;
      }
      return session
        .verify({
          pages: recheck ?? options.pages,
          policy: options.policy,
          siteOrigin: options.siteOrigin,
          ...(recheck
            ? { sampleSize: recheck.length }
            : options.sampleSize !== undefined
              ? { sampleSize: options.sampleSize }
              : {}),
          ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
          ...(options.interactionBudgetMs !== undefined
            ? { interactionBudgetMs: options.interactionBudgetMs }
            : {}),
          onProgress: (fraction) => {
            done.firefox = fraction;
            void report();
          },
        })
        .catch((error: unknown) => {
          this.firefoxProblem = `Firefox stopped verifying: ${message(error)}`;
          this.lastFirefox = null;
          return null;
        });
    });
    const chromiumPass = verifyPolicy({
      ...options,
      onProgress: (fraction) => {
        done.chromium = fraction;
        return report();
      },
    });
    const [chromium, firefox] = await Promise.all([chromiumPass, firefoxPass]);
    this.lastChromium = chromium;
    if (firefox) {
      if (!recheck) this.firefoxPagesChecked = firefox.pagesChecked;
      this.lastFirefox = firefox;
      this.firefoxRecheck = [...firefox.pagesWithViolations.map((p) => p.url), ...firefox.unchecked];
    }
    return firefox ? mergeVerifications(chromium, firefox) : chromium;
  }

  /** Each engine's last pass, or why it verified nothing. */
  engines(): EngineVerification[] {
    const chromium: EngineVerification = {
      engine: 'chromium',
      ...(this.lastChromium
        ? { pagesChecked: this.lastChromium.pagesChecked, violations: this.lastChromium.violations }
        : { unavailable: 'no page was verified' }),
    };
    const firefox: EngineVerification = this.lastFirefox
      ? {
          engine: 'firefox',
          ...(this.firefoxVersion ? { version: this.firefoxVersion } : {}),
          pagesChecked: this.firefoxPagesChecked,
          violations: this.lastFirefox.violations,
        }
      : { engine: 'firefox', unavailable: this.firefoxProblem ?? 'no page was verified' };
    return [chromium, firefox];
  }

  async close(): Promise<void> {
    if (!this.borrowed) await (await this.firefox)?.close();
  }
}

/** Chromium's pass and Firefox's as one: the same pages, so counts add and lists join. */
export function mergeVerifications(chromium: Verification, firefox: Verification): Verification {
  const pages = new Map(chromium.pagesWithViolations.map((p) => [p.url, { ...p }]));
  for (const p of firefox.pagesWithViolations) {
    const known = pages.get(p.url);
    pages.set(p.url, known ? { url: p.url, observations: [...known.observations, ...p.observations] } : p);
  }
  return {
    pagesChecked: chromium.pagesChecked,
    violations: chromium.violations + firefox.violations,
    // Both engines' samples get room: a Firefox-only miss must not hide behind twenty of Chromium's.
    samples: [...chromium.samples.slice(0, 10), ...firefox.samples.slice(0, 10)],
    blocked: [...chromium.blocked, ...firefox.blocked].slice(0, 100),
    pagesWithViolations: [...pages.values()],
    unchecked: [...new Set([...chromium.unchecked, ...firefox.unchecked.map((u) => `${u} (in Firefox)`)])],
  };
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
}

// The crawler's self-verification: the generated policy was loaded on a sample of pages. "Verified on N
// pages: 0 violations" in green only when nothing was blocked and nothing remains; otherwise "K violations
// remain" in amber with what is still blocked. A refinement after the first pass is said as such, and so
// are the browsers that tried it ("Verified in Chromium and Firefox", or the one that could not be used).
import type { Analysis } from '@csp/shared/schemas/analysis';
import { CircleCheck, CircleDashed, type LucideIcon, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { enginesText, refinementText, verificationHeadline, verificationHolds } from '../utils/verification';
import { RemainingViolationsList } from './remaining-violations-list';

export function VerificationLine({ verification }: { verification: Analysis['verification'] }) {
  if (!verification) {
    return (
      <VerificationBox state="none">
        <p className="text-muted-foreground">
          Not verified: this analysis has no self-verification result. Roll the policy out in report-only mode
          first.
        </p>
      </VerificationBox>
    );
  }
  const refined = refinementText(verification);
  if (verificationHolds(verification)) {
    return (
      <VerificationBox state="clean">
        <div className="flex flex-col gap-0.5">
          <p className="font-medium text-emerald-900" data-testid="verification-headline">
            {verificationHeadline(verification)}
          </p>
          <p className="text-emerald-800/80">
            The pages were reloaded with this policy and nothing they load or run was blocked.
            {refined ? ` The policy was ${refined}.` : null}
          </p>
          <EnginesLine text={enginesText(verification)} tone="text-emerald-800/80" />
        </div>
      </VerificationBox>
    );
  }
  const remaining = verification.remaining ?? [];
  const samples = [...new Set(verification.samples)];
  return (
    <VerificationBox state="violations">
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-col gap-0.5">
          <p className="font-medium text-amber-900" data-testid="verification-headline">
            {verificationHeadline(verification)}
          </p>
          <p className="text-amber-900/80">
            Reloading the pages with this policy still blocked something
            {refined ? `, although it was ${refined}` : ''}. Review these before you enforce it:
          </p>
          <EnginesLine text={enginesText(verification)} tone="text-amber-900/80" />
        </div>
        {remaining.length > 0 ? (
          <RemainingViolationsList items={remaining} />
        ) : samples.length > 0 ? (
          <ul className="flex flex-col gap-1">
            {samples.map((sample) => (
              <li
                key={sample}
                className="rounded-md bg-white/70 px-2 py-1 font-mono text-xs [overflow-wrap:anywhere] text-amber-950 ring-1 ring-amber-200"
              >
                {sample}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </VerificationBox>
  );
}

/** Which browsers tried the policy (absent on analyses from before engines were recorded). */
function EnginesLine({ text, tone }: { text: string | null; tone: string }) {
  if (!text) return null;
  return (
    <p className={tone} data-testid="verification-engines">
      {text}
    </p>
  );
}

const TONES = {
  none: { Icon: CircleDashed, box: 'border-border bg-slate-50/60', icon: 'text-slate-400' },
  clean: { Icon: CircleCheck, box: 'border-emerald-200 bg-emerald-50', icon: 'text-emerald-600' },
  violations: { Icon: TriangleAlert, box: 'border-amber-200 bg-amber-50', icon: 'text-amber-600' },
} satisfies Record<string, { Icon: LucideIcon; box: string; icon: string }>;

/** The frame of each state: a tinted box with the state's icon, tagged for the tests. */
function VerificationBox({ state, children }: { state: keyof typeof TONES; children: ReactNode }) {
  const { Icon, box, icon } = TONES[state];
  return (
    <div
      className={`flex items-start gap-3 rounded-lg border ${box} px-3.5 py-3 text-sm`}
      data-testid="verification"
      data-state={state}
    >
      <Icon className={`mt-0.5 size-4 shrink-0 ${icon}`} aria-hidden="true" />
      {children}
    </div>
  );
}

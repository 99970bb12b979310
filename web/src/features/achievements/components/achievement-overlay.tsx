// The achievement overlay (spec section 2): for an unlock not shown yet, a full-screen modal with 20
// confetti dots, 'Achievement Unlocked!', the icon, title and description, the rarity badge, '+N points' and
// 'Continue'. The backdrop, the close icon and Continue dismiss it; it dismisses itself after 8 s. Shown
// once per unlock: dismissing marks it seen on the server.
import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useMarkSeen } from '../api/mark-seen';
import type { Achievement } from '../api/types';
import { AchievementIcon, RarityBadge } from './achievements-card';

export const OVERLAY_AUTO_DISMISS_MS = 8000;
export const CONFETTI_DOTS = 20;
const COLORS = ['bg-indigo-400', 'bg-amber-400', 'bg-emerald-400', 'bg-rose-400', 'bg-sky-400'];

export function AchievementOverlay({ achievements }: { achievements: Achievement[] }) {
  const markSeen = useMarkSeen();
  // Oldest unseen first, one at a time.
  const next = [...achievements].reverse().find((a) => a.seen === false);
  // Hidden at once, before the server's list says it was seen.
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const shown = next && !dismissed.has(next.type) ? next : undefined;

  function dismiss() {
    if (!shown) return;
    setDismissed((d) => new Set([...d, shown.type]));
    markSeen.mutate(shown.type);
  }

  const shownType = shown?.type;
  // One timer per shown achievement: dismiss() reads the current one when it fires.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the shown achievement's type only
  useEffect(() => {
    if (!shownType) return;
    const timer = setTimeout(dismiss, OVERLAY_AUTO_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [shownType]);

  if (!shown) return null;
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center p-4"
      role="dialog"
      aria-modal="true"
      aria-labelledby="achievement-overlay-title"
      data-testid="achievement-overlay"
    >
      <button
        type="button"
        className="absolute inset-0 bg-slate-950/60 backdrop-blur-sm"
        aria-label="Dismiss"
        onClick={dismiss}
        data-testid="achievement-overlay-backdrop"
      />
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 overflow-hidden">
        {Array.from({ length: CONFETTI_DOTS }, (_, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed set of decorative dots
            key={i}
            data-testid="confetti-dot"
            className={`absolute size-2 animate-bounce rounded-full ${COLORS[i % COLORS.length]}`}
            style={{
              left: `${(i * 37) % 100}%`,
              top: `${(i * 53) % 100}%`,
              animationDelay: `${(i % 5) * 120}ms`,
            }}
          />
        ))}
      </div>
      <div className="relative flex w-full max-w-sm flex-col items-center gap-3 rounded-2xl bg-card p-6 text-center shadow-xl">
        <button
          type="button"
          onClick={dismiss}
          aria-label="Close"
          className="absolute top-3 right-3 rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
        <p className="text-sm font-semibold text-primary" id="achievement-overlay-title">
          Achievement Unlocked!
        </p>
        <AchievementIcon icon={shown.icon} rarity={shown.rarity} />
        <h2 className="text-xl font-semibold text-foreground">{shown.title}</h2>
        <p className="text-sm text-muted-foreground">{shown.description}</p>
        <div className="flex items-center gap-2">
          <RarityBadge rarity={shown.rarity} />
          <span className="text-sm font-semibold text-emerald-600">+{shown.points} points</span>
        </div>
        <Button onClick={dismiss} className="mt-2 w-full" data-testid="achievement-continue">
          Continue
        </Button>
      </div>
    </div>
  );
}

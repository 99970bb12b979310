// The achievement overlay (spec section 2): for an unlock not shown yet, a full-screen layer with 20
// confetti dots, 'Achievement Unlocked!', the icon, title and description, the rarity badge, '+N points' and
// 'Continue'. The backdrop, the close icon and Continue dismiss it; it dismisses itself after 8 s. Shown
// once per unlock: dismissing marks it seen on the server.
//
// It lives in the frame of every signed-in screen, so an unlock shows where it was earned, and it never
// takes a click meant for the page: it waits until the page is at rest (nothing loading, no input for a
// moment), the card takes clicks only once it has been seen, and the backdrop takes none: a click on the page
// around the card reaches the page (and dismisses the overlay).
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useAfterPaint } from '@/hooks/use-after-paint';
import { cn } from '@/lib/class-names';
import { userQueryKey } from '@/lib/query-keys';
import { useAchievements } from '../api/get-achievements';
import { useMarkSeen } from '../api/mark-seen';
import { useQuietMoment } from '../hooks/use-quiet-moment';
import { useUnlockRefresh } from '../hooks/use-unlock-refresh';
import { AchievementIcon, RarityBadge } from './achievements-card';

export const OVERLAY_AUTO_DISMISS_MS = 8000;
export const CONFETTI_DOTS = 20;
/** The fade-in. */
export const OVERLAY_FADE_MS = 250;
/**
 * The card takes clicks only this long after it starts to fade in: a click sooner was on its way before the
 * card could be seen (a human reaction takes longer), and it reaches the page instead.
 */
export const OVERLAY_CLICKABLE_AFTER_MS = OVERLAY_FADE_MS + 400;
const COLORS = ['bg-indigo-400', 'bg-amber-400', 'bg-emerald-400', 'bg-rose-400', 'bg-sky-400'];

/** `signedIn`: the frame's user is known (the unlocks are read only then). */
export function AchievementOverlay({ signedIn }: { signedIn: boolean }) {
  // Logout clears the cache before the screen goes: a render in between (this component follows the
  // page's requests) must not read the unlocks of a user who is no longer signed in.
  const queryClient = useQueryClient();
  const known = signedIn && Boolean(queryClient.getQueryData(userQueryKey));
  // Read once the screen's first view is painted and its own reads have answered: an unlock shows only at a
  // quiet moment anyway, and read sooner it took one of the browser's six connections from the screen's
  // modules and reads (on the domain screen, the last request of the chain before its largest paint).
  const painted = useAfterPaint();
  const fetching = useIsFetching();
  const [screenRead, setScreenRead] = useState(false);
  if (!screenRead && painted && fetching === 0) setScreenRead(true);
  const achievements = useAchievements({ enabled: known && screenRead }).data ?? [];
  useUnlockRefresh(known);
  const markSeen = useMarkSeen();
  // Oldest unseen first, one at a time; hidden at once, before the server's list says it was seen.
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const next = [...achievements].reverse().find((a) => a.seen === false && !dismissed.has(a.type));
  // The unlock cleared to show: it stays on screen when the page gets busy again.
  const [cleared, setCleared] = useState<string | null>(null);
  const quiet = useQuietMoment(Boolean(next) && cleared !== next?.type);
  useEffect(() => {
    if (quiet && next) setCleared(next.type);
  }, [quiet, next]);
  const shown = next && cleared === next.type ? next : undefined;

  function dismiss() {
    if (!shown) return;
    setDismissed((d) => new Set([...d, shown.type]));
    markSeen.mutate(shown.type);
  }

  const shownType = shown?.type;
  const card = useRef<HTMLDivElement>(null);
  const [interactive, setInteractive] = useState(false);
  // One clickable timer, one auto-dismiss timer and one set of listeners per shown unlock; they call the current
  // dismiss() when they fire.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the shown achievement's type only
  useEffect(() => {
    setInteractive(false);
    if (!shownType) return;
    const clickable = setTimeout(() => setInteractive(true), OVERLAY_CLICKABLE_AFTER_MS);
    const autoDismiss = setTimeout(dismiss, OVERLAY_AUTO_DISMISS_MS + OVERLAY_FADE_MS);
    return () => {
      clearTimeout(clickable);
      clearTimeout(autoDismiss);
    };
  }, [shownType]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-bound when the shown unlock changes
  useEffect(() => {
    if (!shownType || !interactive) return;
    // A press outside the card is the backdrop's dismiss; the press itself carries on to the page.
    const onPointerDown = (event: PointerEvent) => {
      if (!card.current?.contains(event.target as Node)) dismiss();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dismiss();
    };
    window.addEventListener('pointerdown', onPointerDown, true);
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('pointerdown', onPointerDown, true);
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [shownType, interactive]);

  if (!shown) return null;
  return (
    <div
      // Fades in from its first frame (@starting-style); its card is clickable once it has been seen.
      className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center p-4 opacity-100 transition-opacity duration-250 ease-out starting:opacity-0 motion-reduce:transition-none"
      role="dialog"
      aria-labelledby="achievement-overlay-title"
      // The page (and its tests) meet the overlay and its Continue once they take clicks.
      data-testid={interactive ? 'achievement-overlay' : undefined}
      data-state={interactive ? 'open' : 'opening'}
    >
      <div
        className="absolute inset-0 bg-slate-950/50"
        aria-hidden="true"
        data-testid="achievement-overlay-backdrop"
      />
      <div aria-hidden="true" className="absolute inset-0 overflow-hidden">
        {Array.from({ length: CONFETTI_DOTS }, (_, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed set of decorative dots
            key={i}
            data-testid="confetti-dot"
            className={`absolute size-2 animate-bounce rounded-full motion-reduce:animate-none ${COLORS[i % COLORS.length]}`}
            style={{
              left: `${(i * 37) % 100}%`,
              top: `${(i * 53) % 100}%`,
              animationDelay: `${(i % 5) * 120}ms`,
            }}
          />
        ))}
      </div>
      <div
        ref={card}
        className={cn(
          'relative flex w-full max-w-sm flex-col items-center gap-3 rounded-2xl bg-card p-6 text-center shadow-xl',
          interactive ? 'pointer-events-auto' : 'pointer-events-none',
        )}
      >
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
        <h2 className="text-xl font-semibold break-words text-foreground">{shown.title}</h2>
        <p className="text-sm text-muted-foreground">{shown.description}</p>
        <div className="flex items-center gap-2">
          <RarityBadge rarity={shown.rarity} />
          <span className="text-sm font-semibold text-emerald-700">+{shown.points} points</span>
        </div>
        <Button
          onClick={dismiss}
          className="mt-2 w-full"
          data-testid={interactive ? 'achievement-continue' : undefined}
        >
          Continue
        </Button>
      </div>
    </div>
  );
}

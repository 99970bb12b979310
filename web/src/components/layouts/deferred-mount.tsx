// Screens with many panels (the domain screen: the rules generator, scripts, changes, reports and
// monitoring below its summary; the dashboard: its cards below the summary tiles) show their first view
// first: what is below it mounts once that view has been painted, in a React transition, which renders in
// slices that yield to the browser between them. Mounted at once, the whole screen was one main-thread task
// of several hundred milliseconds on a phone, during which the page did not answer a tap (Lighthouse's Total
// Blocking Time). Nothing waits for scrolling: every panel is in the page a moment later, for find-in-page,
// links to an anchor (#scripts) and keyboard users alike.
//
// `until`: what else they wait for, their data. Mounted before it, they rendered again when it came, and
// React renders a query's answer in one piece (never in slices): on the domain screen, the history and the
// cards beside it were such a task of 100+ ms on a phone. The answer turns `until` true in that urgent
// render; the children mount in the deferred render that follows it (useDeferredValue), in slices.
import { type ReactNode, useDeferredValue } from 'react';
import { useAfterPaint } from '@/hooks/use-after-paint';

export function DeferredMount({
  children,
  fallback = null,
  until = true,
}: {
  children: ReactNode;
  fallback?: ReactNode;
  until?: boolean;
}) {
  const painted = useAfterPaint();
  const ready = useDeferredValue(until);
  return painted && ready ? children : fallback;
}

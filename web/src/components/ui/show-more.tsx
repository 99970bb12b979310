// Lists whose length someone else decides (violation reports name any source they like): the first few
// items rendered, the rest a click away. A flood of distinct sources then costs the owner's screen a button,
// not two hundred cards: rendered at once, the reports panel of a flooded domain was 24,000 px tall with
// 2,300 elements, and the screen took seconds to answer.
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatCount } from '@/lib/format';

interface MoreProps {
  shown: number;
  hidden: number;
  step: number;
  onClick: () => void;
}

/**
 * The first `step` items of `items` (`shown`), and the props of the button that shows `step` more
 * (`more`, for ShowMoreButton).
 */
export function useShownFirst<T>(items: readonly T[], step: number): { shown: T[]; more: MoreProps } {
  const [limit, setLimit] = useState(step);
  const shown = items.slice(0, limit);
  return {
    shown,
    more: {
      shown: shown.length,
      hidden: Math.max(0, items.length - limit),
      step,
      onClick: () => setLimit((l) => l + step),
    },
  };
}

/** 'Show N more', with how many are shown of all; nothing once every item is shown. */
export function ShowMoreButton({ shown, hidden, step, onClick, testId }: MoreProps & { testId: string }) {
  if (hidden <= 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button variant="outline" size="sm" onClick={onClick} data-testid={testId}>
        Show {formatCount(Math.min(step, hidden))} more
      </Button>
      <span className="text-xs text-muted-foreground">
        {formatCount(shown)} of {formatCount(shown + hidden)} shown
      </span>
    </div>
  );
}

// A small tooltip (spec: opens after 700 ms; within 300 ms of another closing, it opens at once). Centred
// over its trigger, and moved sideways when that would cut it at the edge of the screen (phones). The
// trigger (the one element child) is described by it while open, so a screen reader reads the sentence on
// focus; Escape closes it.
import {
  cloneElement,
  type HTMLAttributes,
  isValidElement,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { cn } from '@/lib/class-names';

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

let lastClosedAt = 0;

export function Tooltip({
  content,
  children,
  className,
}: {
  content: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [shift, setShift] = useState(0);
  const bubble = useRef<HTMLSpanElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useLayoutEffect(() => {
    if (!open || !bubble.current) {
      setShift(0);
      return;
    }
    const margin = 8;
    const rect = bubble.current.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    if (rect.left < margin) setShift(margin - rect.left);
    else if (rect.right > width - margin) setShift(width - margin - rect.right);
  }, [open]);
  const id = useId();

  useEffect(() => () => clearTimeout(timer.current), []);

  function show() {
    clearTimeout(timer.current);
    const skip = Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS;
    if (skip) setOpen(true);
    else timer.current = setTimeout(() => setOpen(true), TOOLTIP_DELAY_MS);
  }

  function hide() {
    clearTimeout(timer.current);
    setOpen((wasOpen) => {
      if (wasOpen) lastClosedAt = Date.now();
      return false;
    });
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the wrapper only listens; the trigger is the child.
    <span
      className={cn('relative inline-flex', className)}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) hide();
      }}
    >
      {isValidElement<HTMLAttributes<HTMLElement>>(children)
        ? cloneElement(children, { 'aria-describedby': open ? id : undefined })
        : children}
      {open ? (
        <span
          ref={bubble}
          role="tooltip"
          id={id}
          style={shift ? { marginLeft: shift } : undefined}
          className="pointer-events-none absolute bottom-full left-1/2 z-50 mb-2 w-max max-w-[min(18rem,calc(100vw-2rem))] -translate-x-1/2 animate-fade-in rounded-md bg-slate-900 px-2.5 py-1.5 text-left text-xs leading-snug font-normal whitespace-normal text-white shadow-md"
        >
          {content}
        </span>
      ) : null}
    </span>
  );
}

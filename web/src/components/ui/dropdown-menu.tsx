// A small menu of actions behind a button, on the native popover: it sits in the top layer, so a table's
// scrolling box cannot cut it off, and a click elsewhere or Escape closes it (focus goes back to the
// button). Placed under its button, right-aligned, or above it when there is no room below, and it follows
// the button when the page scrolls. Arrow keys, Home and End move between the items; Tab leaves and closes.
import {
  createContext,
  type KeyboardEvent,
  type ReactNode,
  useContext,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { cn } from '@/lib/class-names';
import { type ButtonProps, buttonVariants } from './button';

const GAP_PX = 4;

const CloseMenu = createContext<() => void>(() => {});

export function DropdownMenu({
  trigger,
  label,
  children,
  disabled,
  testId,
  className,
  triggerClassName,
}: {
  /** The button's content (an icon, say). */
  trigger: ReactNode;
  /** The button's accessible name. */
  label: string;
  /** `DropdownMenuItem`s. */
  children: ReactNode;
  disabled?: boolean;
  testId?: string;
  /** The menu's classes (its width, say). */
  className?: string;
  /** The button's classes, in place of an icon button's (for a trigger with text, say). */
  triggerClassName?: string;
}) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const close = () => menu.current?.hidePopover();

  // Follows its button when the page scrolls or is resized; and placed again once it has a size (the
  // observer reports it after layout, before the first paint), so it never shows below and then jumps.
  useLayoutEffect(() => {
    if (!open) return;
    const sized = new ResizeObserver(place);
    if (menu.current) sized.observe(menu.current);
    window.addEventListener('scroll', place, { capture: true, passive: true });
    window.addEventListener('resize', place);
    return () => {
      sized.disconnect();
      window.removeEventListener('scroll', place, { capture: true });
      window.removeEventListener('resize', place);
    };
  });

  const items = () => [
    ...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? []),
  ];

  function place() {
    const el = menu.current;
    const at = button.current?.getBoundingClientRect();
    if (!el || !at) return;
    el.style.right = `${Math.max(GAP_PX, document.documentElement.clientWidth - at.right)}px`;
    // Under the button; above it when there is no room below (its height is 0 until it shows).
    const height = el.offsetHeight;
    const below = at.bottom + GAP_PX;
    const above = at.top - GAP_PX - height;
    const fits = below + height <= window.innerHeight - GAP_PX || above < GAP_PX;
    el.style.top = `${fits ? below : above}px`;
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Tab') {
      close();
      return;
    }
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === 'ArrowDown'
        ? (at + 1) % all.length
        : event.key === 'ArrowUp'
          ? (at - 1 + all.length) % all.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? all.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    all[next]?.focus();
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        className={triggerClassName ?? buttonVariants({ variant: 'ghost', size: 'icon' })}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        popoverTarget={id}
        disabled={disabled}
        data-testid={testId}
      >
        {trigger}
      </button>
      <div
        ref={menu}
        id={id}
        popover="auto"
        role="menu"
        aria-label={label}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        onBeforeToggle={(event) => {
          if (event.newState !== 'open') return;
          place();
          setOpen(true);
        }}
        onToggle={(event) => {
          // The items go once it is closed: the browser has put the focus back on the button by then.
          if (event.newState !== 'open') {
            setOpen(false);
            return;
          }
          place();
          items()[0]?.focus({ preventScroll: true });
        }}
        className={cn(
          'fixed inset-auto m-0 w-44 flex-col rounded-md border border-border bg-card p-1 text-left text-sm text-foreground shadow-lg [&:popover-open]:flex',
          className,
        )}
      >
        {open ? <CloseMenu.Provider value={close}>{children}</CloseMenu.Provider> : null}
      </div>
    </>
  );
}

export function DropdownMenuItem({
  onSelect,
  destructive = false,
  children,
  className,
  ...props
}: Omit<ButtonProps, 'onClick' | 'onSelect' | 'variant' | 'size'> & {
  onSelect: () => void;
  destructive?: boolean;
}) {
  const close = useContext(CloseMenu);
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={cn(
        'flex items-center gap-2 rounded px-2 py-1.5 text-left outline-none focus-visible:bg-muted disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
        destructive ? 'text-destructive hover:bg-red-50 focus-visible:bg-red-50' : 'hover:bg-muted',
        className,
      )}
      onClick={() => {
        close();
        onSelect();
      }}
      {...props}
    >
      {children}
    </button>
  );
}

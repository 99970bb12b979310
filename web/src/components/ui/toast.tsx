// Renders the toast store: one toast at a time, 5 s on screen (paused while hovered or focused),
// a close button, an optional action; viewport at most 420 px wide on md screens and up.
import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { dismissToast, TOAST_DURATION_MS, type ToastItem, useToasts } from '@/hooks/use-toast';
import { cn } from '@/lib/class-names';

export function Toaster() {
  const toasts = useToasts();
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] flex max-h-screen w-full flex-col-reverse gap-2 p-4 sm:inset-x-auto sm:top-auto sm:right-0 sm:bottom-0 sm:flex-col md:max-w-[420px]"
    >
      {toasts
        .filter((t) => t.open)
        .map((t) => (
          <Toast key={t.id} item={t} />
        ))}
    </section>
  );
}

function Toast({ item }: { item: ToastItem }) {
  const { id, title, description, action, variant = 'default', duration = TOAST_DURATION_MS } = item;
  const [paused, setPaused] = useState(false);
  const remaining = useRef(duration);

  useEffect(() => {
    if (paused || !Number.isFinite(remaining.current)) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [id, paused]);

  const destructive = variant === 'destructive';
  const Icon = destructive ? CircleAlert : CircleCheck;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only pause the auto-dismiss timer.
    <div
      role={destructive ? 'alert' : 'status'}
      aria-live={destructive ? 'assertive' : 'polite'}
      aria-atomic="true"
      data-variant={variant}
      data-testid="toast"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className={cn(
        'pointer-events-auto relative flex w-full animate-toast-in items-start gap-3 overflow-hidden rounded-xl border p-4 pr-10 shadow-lg',
        destructive
          ? 'border-destructive bg-destructive text-destructive-foreground'
          : 'border-border bg-card text-card-foreground',
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn('mt-0.5 size-5 shrink-0', destructive ? 'text-white' : 'text-success')}
      />
      <div className="grid min-w-0 flex-1 gap-1">
        {title ? <div className="text-sm font-semibold">{title}</div> : null}
        {description ? (
          <div className={cn('text-sm break-words', destructive ? 'text-white/90' : 'text-muted-foreground')}>
            {description}
          </div>
        ) : null}
        {action ? (
          <div className="mt-2">
            <button
              type="button"
              onClick={() => {
                action.onClick();
                dismissToast(id);
              }}
              className={cn(
                'inline-flex h-8 items-center rounded-md border px-3 text-xs font-medium transition-colors',
                destructive ? 'border-white/40 hover:bg-white/10' : 'border-border bg-card hover:bg-muted',
              )}
            >
              {action.label}
            </button>
          </div>
        ) : null}
      </div>
      <button
        type="button"
        aria-label="Close"
        onClick={() => dismissToast(id)}
        className={cn(
          'absolute top-3 right-3 rounded-md p-1 transition-colors',
          destructive
            ? 'text-white/80 hover:bg-white/10 hover:text-white'
            : 'text-slate-400 hover:bg-muted hover:text-foreground',
        )}
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

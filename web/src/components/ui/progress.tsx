import { cn } from '@/lib/class-names';

export interface ProgressProps {
  /** 0 to 100; undefined shows an indeterminate bar. */
  value?: number | undefined;
  className?: string;
  barClassName?: string;
  label?: string;
}

export function Progress({ value, className, barClassName, label }: ProgressProps) {
  const clamped = value === undefined ? undefined : Math.min(100, Math.max(0, value));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped === undefined ? undefined : Math.round(clamped)}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-slate-100', className)}
    >
      {clamped === undefined ? (
        <div
          className={cn(
            'absolute inset-y-0 w-2/5 animate-progress-indeterminate rounded-full bg-primary',
            barClassName,
          )}
        />
      ) : (
        <div
          className={cn(
            'h-full rounded-full bg-primary transition-[width] duration-1000 ease-out',
            barClassName,
          )}
          // React sets this through the CSSOM, which a strict style-src allows.
          style={{ width: `${clamped}%` }}
        />
      )}
    </div>
  );
}

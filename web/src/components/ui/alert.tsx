// A boxed message in a semantic tone: errors, warnings, notes and confirmations inside cards.
import { CircleAlert, CircleCheck, Info, type LucideIcon, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/class-names';

export type AlertTone = 'error' | 'warning' | 'info' | 'success';

const TONES: Record<AlertTone, { box: string; icon: string; Icon: LucideIcon }> = {
  error: { box: 'border-red-200 bg-red-50 text-red-800', icon: 'text-red-600', Icon: CircleAlert },
  warning: {
    box: 'border-amber-200 bg-amber-50 text-amber-900',
    icon: 'text-amber-600',
    Icon: TriangleAlert,
  },
  info: { box: 'border-blue-200 bg-blue-50 text-blue-900', icon: 'text-blue-600', Icon: Info },
  success: {
    box: 'border-emerald-200 bg-emerald-50 text-emerald-900',
    icon: 'text-emerald-600',
    Icon: CircleCheck,
  },
};

export function Alert({
  tone = 'info',
  title,
  children,
  icon,
  className,
  role,
  testId,
}: {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  icon?: LucideIcon;
  className?: string;
  role?: 'alert' | 'status';
  testId?: string;
}) {
  const { box, icon: iconClass, Icon } = TONES[tone];
  const Glyph = icon ?? Icon;
  return (
    <div
      className={cn('flex gap-3 rounded-lg border px-3.5 py-3 text-sm', box, className)}
      role={role}
      data-testid={testId}
    >
      <Glyph className={cn('mt-0.5 size-4 shrink-0', iconClass)} aria-hidden="true" />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        {title ? <p className="font-medium">{title}</p> : null}
        {children ? <div className="min-w-0 break-words">{children}</div> : null}
      </div>
    </div>
  );
}

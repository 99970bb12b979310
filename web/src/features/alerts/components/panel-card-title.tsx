// The title of one of the Alerts panel's cards: an h3, since the panel sits under its section's h2
// ("Alerts") on the domain screen.
import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/class-names';

export function PanelCardTitle({ className, ...props }: HTMLAttributes<HTMLHeadingElement>) {
  return <h3 className={cn('text-base font-semibold leading-tight tracking-tight', className)} {...props} />;
}

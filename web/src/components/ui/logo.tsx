import { ShieldCheck } from 'lucide-react';
import { cn } from '@/lib/class-names';

/** The product mark: a shield in the brand colour, and the name. */
export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5 font-semibold tracking-tight', className)}>
      <span
        className={cn(
          'flex size-8 items-center justify-center rounded-lg shadow-sm',
          inverted ? 'bg-white/10 text-white ring-1 ring-white/20' : 'bg-primary text-primary-foreground',
        )}
      >
        <ShieldCheck className="size-[18px]" aria-hidden="true" />
      </span>
      <span className={inverted ? 'text-white' : 'text-foreground'}>CSP Generator</span>
    </span>
  );
}

// A small set of mutually exclusive options shown as one control: native radio buttons (arrow keys, form
// semantics and screen readers for free) styled as a segmented switch. The options not chosen are
// slate-600 on the slate-100 track (the muted grey reads at 4.3:1 there, under the 4.5:1 text needs).
import { type ReactNode, useId } from 'react';
import { cn } from '@/lib/class-names';

export interface SegmentedOption<T extends string> {
  value: T;
  label: ReactNode;
}

export function SegmentedControl<T extends string>({
  value,
  onValueChange,
  options,
  label,
  className,
}: {
  value: T;
  onValueChange: (value: T) => void;
  options: ReadonlyArray<SegmentedOption<T>>;
  label: string;
  className?: string;
}) {
  const name = useId();
  return (
    <fieldset
      className={cn(
        'inline-flex h-9 items-center gap-1 rounded-lg bg-slate-100 p-1 text-slate-600',
        className,
      )}
    >
      <legend className="sr-only">{label}</legend>
      {options.map((option) => (
        <label key={option.value} className="relative">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={option.value === value}
            onChange={() => onValueChange(option.value)}
            className="peer sr-only"
          />
          <span
            className={cn(
              'inline-flex h-7 cursor-pointer items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors [&_svg]:size-3.5',
              'hover:text-foreground peer-checked:bg-card peer-checked:text-foreground peer-checked:shadow-sm',
              'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring',
            )}
          >
            {option.label}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

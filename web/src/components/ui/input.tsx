import type { ComponentProps } from 'react';
import { cn } from '@/lib/class-names';

const field =
  'w-full rounded-lg border border-input bg-card px-3 text-sm text-foreground shadow-xs transition-colors ' +
  'placeholder:text-slate-400 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 ' +
  'focus-visible:outline-ring/30 disabled:cursor-not-allowed disabled:opacity-60 ' +
  'aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive/30';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return <input type={type} className={cn(field, 'h-10', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(field, 'min-h-24 py-2', className)} {...props} />;
}

/** A website address: the URL keyboard and autofill, no capitalisation or spell checking. */
export function UrlInput(props: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <Input
      type="url"
      inputMode="url"
      placeholder="https://example.com"
      autoComplete="url"
      autoCapitalize="none"
      spellCheck={false}
      {...props}
    />
  );
}

/** A native select, styled like the other fields (keyboard, mobile pickers and screen readers for free). */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(field, 'h-10 pr-8', className)} {...props} />;
}

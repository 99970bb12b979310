import { describe, expect, it } from 'vitest';
import { cn } from './class-names';

describe('cn', () => {
  it('skips falsy values', () => {
    expect(cn('a', false, null, undefined, 'b')).toBe('a b');
  });

  it('keeps the later utility of a group, per variant', () => {
    expect(cn('text-base font-semibold', 'text-2xl')).toBe('font-semibold text-2xl');
    expect(cn('text-foreground hover:bg-muted', 'text-muted-foreground')).toBe(
      'hover:bg-muted text-muted-foreground',
    );
    expect(cn('p-5 sm:p-6', 'sm:p-4')).toBe('p-5 sm:p-4');
    expect(cn('flex', 'hidden', 'lg:flex')).toBe('hidden lg:flex');
  });

  it('does not confuse text size, colour and alignment', () => {
    expect(cn('text-sm text-slate-500 text-center', 'text-lg')).toBe('text-slate-500 text-center text-lg');
  });

  it('leaves unrelated utilities alone', () => {
    expect(cn('bg-primary bg-[size:44px_44px]', 'pt-4 pb-2')).toBe(
      'bg-primary bg-[size:44px_44px] pt-4 pb-2',
    );
  });
});

import type { HTMLAttributes, ReactNode } from 'react';

/**
 * A place whose content is on its way: busy for assistive technology, a status read out once ("Loading the
 * scripts..."), and the skeleton of what comes as its children. Every loading place of the app is one, so
 * none is silent to a screen reader and none is announced twice.
 */
export function LoadingBlock({
  label,
  children,
  ...props
}: { label: string; children?: ReactNode } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div aria-busy="true" {...props}>
      <span className="sr-only" role="status">
        {label}
      </span>
      {children}
    </div>
  );
}

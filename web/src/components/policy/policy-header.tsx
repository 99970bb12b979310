// A policy header as it is sent: the header name, then one directive a line with its sources; and copying
// its value with the spec's toasts. Shared by the analysis' policy card and the rules generator.
import { copyWithToast } from '@/hooks/copy-with-toast';
import { cn } from '@/lib/class-names';

export async function copyPolicy(value: string): Promise<void> {
  await copyWithToast(value, 'CSP policy', {
    title: 'Copied to Clipboard',
    description: 'CSP policy has been copied to your clipboard.',
  });
}

export function PolicyHeader({
  name,
  value,
  testId,
  nameTestId,
  className,
}: {
  name: string;
  value: string;
  testId: string;
  nameTestId?: string;
  className?: string;
}) {
  const lines = value ? value.split('; ') : [];
  return (
    <figure
      className="overflow-hidden rounded-lg border border-slate-800 bg-slate-950"
      aria-label="Policy header"
    >
      <figcaption
        className="border-b border-white/10 px-3 py-2 font-mono text-xs text-slate-400"
        data-testid={nameTestId}
      >
        {name}
      </figcaption>
      <pre
        className={cn(
          'max-h-[30rem] overflow-auto px-3 py-3 font-mono text-[13px] leading-6 whitespace-pre-wrap text-slate-200 [overflow-wrap:anywhere]',
          className,
        )}
        data-testid={testId}
      >
        <code>
          {lines.map((line, index) => {
            const space = line.indexOf(' ');
            const directive = space === -1 ? line : line.slice(0, space);
            return (
              <span key={directive} className="block pl-4 -indent-4">
                <span className="text-indigo-300">{directive}</span>
                <span className="text-emerald-300">{space === -1 ? '' : line.slice(space)}</span>
                {index < lines.length - 1 ? <span className="text-slate-500">;</span> : null}
              </span>
            );
          })}
        </code>
      </pre>
    </figure>
  );
}

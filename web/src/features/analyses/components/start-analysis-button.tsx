// 'Quick Start Analysis': POST /api/csp-analyses {domainId, crawlRequest: {}} — the server's defaults
// (50 pages, 1 s between requests) on the domain's own URL.
import { Play } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useStartDomainAnalysis } from '../hooks/use-start-domain-analysis';

export function StartAnalysisButton({
  domainId,
  onStarted,
  onRefused,
  children = 'Quick Start Analysis',
  ...props
}: { domainId: string; onStarted?: () => void; onRefused?: () => void } & Omit<
  ButtonProps,
  'onClick' | 'loading'
>) {
  const start = useStartDomainAnalysis({ domainId, onSuccess: onStarted, onRefused });
  return (
    <Button {...props} loading={start.isPending} onClick={() => start.mutate({ crawlRequest: {} })}>
      {start.isPending ? null : <Play aria-hidden="true" />}
      {children}
    </Button>
  );
}

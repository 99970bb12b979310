// Spec section 4: default style for completed, destructive for failed, secondary otherwise.
import { Badge } from '@/components/ui/badge';

const LABELS: Record<string, string> = {
  pending: 'Pending',
  running: 'Running',
  in_progress: 'In progress',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
};

export function AnalysisStatusBadge({ status }: { status: string }) {
  const variant = status === 'completed' ? 'default' : status === 'failed' ? 'destructive' : 'secondary';
  return <Badge variant={variant}>{LABELS[status] ?? status}</Badge>;
}

/** On the dashboard, pending and running count as active (spec section 4). */
export function isActiveAnalysis(status: string): boolean {
  return status === 'pending' || status === 'running';
}

// The domain screen's 'Success rate' (spec section 9: the percent of completed analyses, or N/A). Of the
// finished analyses only: one waiting or running has neither succeeded nor failed yet, and counting it as a
// failure showed 0 % while the first analysis ran.
import type { Analysis } from '@csp/shared/schemas/analysis';

export function successRate(analyses: Pick<Analysis, 'status'>[]): string {
  const finished = analyses.filter((a) => a.status === 'completed' || a.status === 'failed');
  if (finished.length === 0) return 'N/A';
  const completed = finished.filter((a) => a.status === 'completed').length;
  return `${Math.round((completed / finished.length) * 100)}%`;
}

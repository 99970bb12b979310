// Standalone generator 'Quick Actions': test the policy in Google's CSP Evaluator, download the report
// (csp-analysis-report.json), and share the page (the share sheet, else the URL is copied).
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ExternalLink, FileDown, Share2, Zap } from 'lucide-react';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/hooks/use-toast';
import { copyText } from '@/lib/clipboard';
import { downloadText } from '@/lib/download';
import { analysisReportJson, REPORT_FILENAME } from '../utils/report';

export const CSP_EVALUATOR_URL = 'https://csp-evaluator.withgoogle.com/';

async function shareResults(analysis: Analysis) {
  const url = window.location.href;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({
        title: 'CSP analysis results',
        text: `Content Security Policy analysis of ${analysis.url}`,
        url,
      });
    } catch (error) {
      // The user closed the share sheet: nothing to report.
      if (!(error instanceof DOMException && error.name === 'AbortError'))
        console.warn('Share failed', error);
    }
    return;
  }
  try {
    await copyText(url);
    window.alert('URL copied to clipboard!');
  } catch {
    // The spec's alert, not a toast, says it worked; only the failure is a toast.
    toast({
      variant: 'destructive',
      title: 'Copy Failed',
      description: 'Failed to copy the page URL to clipboard.',
    });
  }
}

export function QuickActionsCard({ analysis }: { analysis: Analysis }) {
  return (
    <Card>
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle className="flex items-center gap-2">
          <Zap className="size-4 text-primary" aria-hidden="true" />
          Quick Actions
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <a
          href={CSP_EVALUATOR_URL}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonVariants({ variant: 'outline', className: 'w-full justify-start' })}
        >
          <ExternalLink aria-hidden="true" />
          Test CSP Policy
          <span className="sr-only">(opens CSP Evaluator in a new tab)</span>
        </a>
        <Button
          variant="outline"
          className="w-full justify-start"
          onClick={() => downloadText(REPORT_FILENAME, analysisReportJson(analysis), 'application/json')}
        >
          <FileDown aria-hidden="true" />
          Download Report
        </Button>
        <Button
          variant="outline"
          className="w-full justify-start"
          onClick={() => void shareResults(analysis)}
        >
          <Share2 aria-hidden="true" />
          Share Results
        </Button>
      </CardContent>
    </Card>
  );
}

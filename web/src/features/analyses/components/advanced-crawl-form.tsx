// The domain screen's 'Advanced Settings' (spec section 5): crawl settings, a manual URL list and sitemap
// URLs (one per line, sent as sitemapContent). The server always crawls the domain's own URL, so the form
// validates with it and sends everything else.
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { Play } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { type FieldErrors, focusFirstInvalid, serverFieldErrors, validateForm } from '@/lib/validation';
import { useStartDomainAnalysis } from '../hooks/use-start-domain-analysis';
import {
  type CrawlFormFields,
  crawlRequestDraft,
  DEFAULT_CRAWL_FIELDS,
  sitemapLines,
} from '../utils/crawl-request';
import { CrawlOptionsFields } from './crawl-options-fields';

export function AdvancedCrawlForm({
  domainId,
  domainUrl,
  onStarted,
  onRefused,
}: {
  domainId: string;
  domainUrl: string;
  onStarted?: () => void;
  onRefused?: () => void;
}) {
  const [fields, setFields] = useState<CrawlFormFields>(DEFAULT_CRAWL_FIELDS);
  const [sitemaps, setSitemaps] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const start = useStartDomainAnalysis({
    domainId,
    onSuccess: () => {
      setErrors({});
      onStarted?.();
    },
    onError: (error) => setErrors(serverFieldErrors(error)),
    onRefused,
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const draft = crawlRequestDraft(fields, { url: domainUrl, sitemapContent: sitemapLines(sitemaps) });
    const result = validateForm(crawlRequestSchema, draft);
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setErrors({});
    const { url: _forcedByTheServer, ...crawlRequest } = result.data;
    start.mutate({ crawlRequest });
  }

  const pending = start.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6" aria-label="Advanced settings">
      <CrawlOptionsFields
        idPrefix="domain-crawl"
        values={fields}
        onChange={setFields}
        errors={errors}
        disabled={pending}
        urlListHint="One URL per line. Crawled besides the pages found from the domain's start page."
      >
        <Field
          id="domain-crawl-sitemaps"
          label="Sitemap URLs"
          error={errors.sitemapContent}
          hint="Optional. One sitemap URL per line; robots.txt and /sitemap.xml are always checked."
          className="sm:col-span-2"
        >
          <Textarea
            name="sitemapContent"
            rows={2}
            placeholder="https://example.com/sitemap-products.xml"
            spellCheck={false}
            autoCapitalize="none"
            className="font-mono text-[13px]"
            value={sitemaps}
            onChange={(e) => setSitemaps(e.target.value)}
            disabled={pending}
          />
        </Field>
      </CrawlOptionsFields>
      {errors.url || errors.form ? (
        <p className="text-sm font-medium text-destructive" role="alert">
          {errors.url ?? errors.form}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-3 border-t border-border pt-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-muted-foreground">
          The crawl always starts from <span className="font-mono text-foreground">{domainUrl}</span>.
        </p>
        <Button type="submit" loading={pending}>
          {pending ? null : <Play aria-hidden="true" />}
          Start Analysis
        </Button>
      </div>
    </form>
  );
}

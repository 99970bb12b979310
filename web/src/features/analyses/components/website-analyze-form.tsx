// Standalone generator 'Analyze Website' (spec section 5, analyze form): a Website URL and 'Analyze', and
// the collapsible 'Advanced Options' (crawl settings, a manual URL list, an uploaded .xml sitemap). At least
// one of url, a non-empty URL list or sitemap content is needed ('Input Required'); the form's values are
// POSTed to /api/csp/analyze.
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { ChevronDown, FileUp, ScanSearch, SlidersHorizontal, X } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { UrlInput } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/class-names';
import { type FieldErrors, focusFirstInvalid, serverFieldErrors, validateForm } from '@/lib/validation';
import { useAnalyzeWebsite } from '../api/analyze-website';
import {
  type CrawlFormFields,
  crawlRequestDraft,
  DEFAULT_CRAWL_FIELDS,
  hasCrawlTarget,
} from '../utils/crawl-request';
import { CrawlOptionsFields } from './crawl-options-fields';

interface Sitemap {
  name: string;
  size: number;
  content: string;
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB`;
}

export function WebsiteAnalyzeForm({ onStarted }: { onStarted: (analysisId: string) => void }) {
  const [url, setUrl] = useState('');
  const [fields, setFields] = useState<CrawlFormFields>(DEFAULT_CRAWL_FIELDS);
  const [sitemap, setSitemap] = useState<Sitemap | null>(null);
  const [advanced, setAdvanced] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const submitting = useRef(false);
  const panelId = useId();

  const analyze = useAnalyzeWebsite({
    onSuccess: (res) => {
      if (!res.success) {
        toast({ variant: 'destructive', title: 'Error', description: 'Failed to start analysis' });
      }
      onStarted(res.analysisId);
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error);
      setErrors(fieldErrors);
      if (Object.keys(fieldErrors).some((k) => k !== 'url' && k !== 'form')) setAdvanced(true);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: (error instanceof ApiError && error.serverMessage) || 'Failed to start analysis',
      });
    },
  });

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      setSitemap({ name: file.name, size: file.size, content: await file.text() });
      setErrors((e) => ({ ...e, sitemapContent: undefined }));
    } catch {
      setErrors((e) => ({ ...e, sitemapContent: 'The file could not be read.' }));
    }
  }

  function clearSitemap() {
    setSitemap(null);
    if (fileInput.current) fileInput.current.value = '';
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const draft = crawlRequestDraft(fields, { url, sitemapContent: sitemap?.content });
    if (!hasCrawlTarget(draft)) {
      setErrors({});
      toast({
        variant: 'destructive',
        title: 'Input Required',
        description: 'Please provide a URL, URL list, or sitemap content.',
      });
      return;
    }
    const result = validateForm(crawlRequestSchema, draft);
    if (!result.success) {
      setErrors(result.errors);
      if (Object.keys(result.errors).some((k) => k !== 'url')) setAdvanced(true);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    // A double click submits twice before the button is disabled: one start at a time.
    if (submitting.current) return;
    submitting.current = true;
    analyze.mutate(result.data, {
      onSettled: () => {
        submitting.current = false;
      },
    });
  }

  const pending = analyze.isPending;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ScanSearch className="size-4 text-primary" aria-hidden="true" />
          Analyze Website
        </CardTitle>
        <CardDescription>
          Enter a URL: the analyzer automatically discovers the sitemap (robots.txt and /sitemap.xml) and
          analyzes all pages it finds, up to the page limit.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Analyze website">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <Field id="analyze-url" label="Website URL" error={errors.url} className="flex-1">
              <UrlInput name="url" value={url} onChange={(e) => setUrl(e.target.value)} disabled={pending} />
            </Field>
            <Button type="submit" loading={pending} className="sm:mt-[22px] sm:min-w-32">
              {pending ? null : <ScanSearch aria-hidden="true" />}
              {pending ? 'Starting...' : 'Analyze'}
            </Button>
          </div>

          <div className="flex flex-col gap-5 border-t border-border pt-4">
            <Button
              variant="ghost"
              size="sm"
              className="self-start text-muted-foreground"
              aria-expanded={advanced}
              aria-controls={panelId}
              onClick={() => setAdvanced((v) => !v)}
            >
              <SlidersHorizontal aria-hidden="true" />
              Advanced Options
              <ChevronDown
                className={cn('transition-transform', advanced && 'rotate-180')}
                aria-hidden="true"
              />
            </Button>
            {advanced ? (
              <div id={panelId} className="animate-fade-in">
                <CrawlOptionsFields
                  idPrefix="analyze"
                  values={fields}
                  onChange={setFields}
                  errors={errors}
                  disabled={pending}
                  urlListHint="One URL per line. Analyzed as well as (or instead of) the pages found from the Website URL."
                >
                  <Field
                    id="analyze-sitemap"
                    label="Upload Sitemap"
                    error={errors.sitemapContent}
                    hint="An .xml sitemap from your computer; its pages are analyzed."
                    className="sm:col-span-2"
                  >
                    <input
                      ref={fileInput}
                      name="sitemap"
                      type="file"
                      accept=".xml,application/xml,text/xml"
                      onChange={(e) => void onFile(e)}
                      disabled={pending}
                      className={cn(
                        'w-full rounded-lg border border-dashed border-input bg-slate-50/60 p-2 text-sm text-muted-foreground',
                        'file:mr-3 file:rounded-md file:border-0 file:bg-card file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-foreground file:shadow-xs file:ring-1 file:ring-input',
                        'hover:file:bg-muted aria-invalid:border-destructive',
                      )}
                    />
                  </Field>
                  {sitemap ? (
                    <div className="flex items-center gap-3 rounded-lg border border-border px-3 py-2 sm:col-span-2">
                      <FileUp className="size-4 shrink-0 text-primary" aria-hidden="true" />
                      <span className="min-w-0 flex-1 truncate text-sm text-foreground">{sitemap.name}</span>
                      <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                        {formatBytes(sitemap.size)}
                      </span>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-7"
                        onClick={clearSitemap}
                        aria-label="Remove the sitemap"
                      >
                        <X aria-hidden="true" />
                      </Button>
                    </div>
                  ) : null}
                </CrawlOptionsFields>
              </div>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

// The crawl settings both crawl forms share (spec section 5): Max Pages to Crawl (1–500, default 50),
// Crawl Delay in ms (0–5000, default 1000), Custom User Agent, and the Manual URL List (one per line).
import type { ReactNode } from 'react';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import type { FieldErrors } from '@/lib/validation';
import type { CrawlFormFields } from '../utils/crawl-request';

export function CrawlOptionsFields({
  idPrefix,
  values,
  onChange,
  errors,
  disabled,
  urlListHint,
  children,
}: {
  idPrefix: string;
  values: CrawlFormFields;
  onChange: (values: CrawlFormFields) => void;
  errors: FieldErrors;
  disabled?: boolean;
  urlListHint: ReactNode;
  /** More fields after the URL list (the sitemap input of each form). */
  children?: ReactNode;
}) {
  const set = (key: keyof CrawlFormFields) => (event: { target: { value: string } }) =>
    onChange({ ...values, [key]: event.target.value });
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <Field
        id={`${idPrefix}-max-pages`}
        label="Max Pages to Crawl"
        error={errors.maxPages}
        hint="From 1 to 500."
      >
        <Input
          name="maxPages"
          type="number"
          inputMode="numeric"
          min={1}
          max={500}
          step={1}
          value={values.maxPages}
          onChange={set('maxPages')}
          disabled={disabled}
        />
      </Field>
      <Field
        id={`${idPrefix}-crawl-delay`}
        label="Crawl Delay (ms)"
        error={errors.crawlDelay}
        hint="Pause between requests to the same host, 0 to 5000."
      >
        <Input
          name="crawlDelay"
          type="number"
          inputMode="numeric"
          min={0}
          max={5000}
          step={100}
          value={values.crawlDelay}
          onChange={set('crawlDelay')}
          disabled={disabled}
        />
      </Field>
      <Field
        id={`${idPrefix}-user-agent`}
        label="Custom User Agent"
        error={errors.userAgent}
        hint="Optional. Overrides the default user agent of the crawler."
        className="sm:col-span-2"
      >
        <Input
          name="userAgent"
          placeholder="Mozilla/5.0 (compatible; MyCrawler/1.0)"
          autoComplete="off"
          spellCheck={false}
          value={values.userAgent}
          onChange={set('userAgent')}
          disabled={disabled}
        />
      </Field>
      <Field
        id={`${idPrefix}-url-list`}
        label="Manual URL List"
        error={errors.urlList}
        hint={urlListHint}
        className="sm:col-span-2"
      >
        <Textarea
          name="urlList"
          rows={4}
          placeholder={'https://example.com/pricing\nhttps://example.com/account/login'}
          spellCheck={false}
          autoCapitalize="none"
          className="font-mono text-[13px]"
          value={values.urlList}
          onChange={set('urlList')}
          disabled={disabled}
        />
      </Field>
      {children}
    </div>
  );
}

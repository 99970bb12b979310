// The crawl settings both crawl forms share (spec section 5), bounded by CRAWL_LIMITS: Max Pages to Crawl,
// Crawl Delay (ms), Custom User Agent, the Manual URL List (one per line), the header budget in bytes and
// the deploy target (server header or CloudFront response-headers policy).
import type { PolicyTarget } from '@csp/shared/csp/policy';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import type { ReactNode } from 'react';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { formatCount } from '@/lib/format';
import type { FieldErrors } from '@/lib/validation';
import type { CrawlFormFields } from '../utils/crawl-request';
import { DeployTargetField } from './deploy-target-field';

const { maxPages, crawlDelay, headerBudget } = CRAWL_LIMITS;

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
  const set =
    (key: Exclude<keyof CrawlFormFields, 'policyTarget'>) => (event: { target: { value: string } }) =>
      onChange({ ...values, [key]: event.target.value });
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <Field
        id={`${idPrefix}-max-pages`}
        label="Max Pages to Crawl"
        error={errors.maxPages}
        hint={`From ${formatCount(maxPages.min)} to ${formatCount(maxPages.max)}.`}
      >
        <Input
          name="maxPages"
          type="number"
          inputMode="numeric"
          min={maxPages.min}
          max={maxPages.max}
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
        hint={`Pause between requests to the same host, ${formatCount(crawlDelay.min)} to ${formatCount(crawlDelay.max)}.`}
      >
        <Input
          name="crawlDelay"
          type="number"
          inputMode="numeric"
          min={crawlDelay.min}
          max={crawlDelay.max}
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
      <DeployTargetField
        value={values.policyTarget}
        onChange={(policyTarget: PolicyTarget) => onChange({ ...values, policyTarget })}
        error={errors.policyTarget}
        disabled={disabled}
      />
      <Field
        id={`${idPrefix}-header-budget`}
        label="Header budget (bytes)"
        error={errors.headerBudget}
        hint={`Bytes the whole Content-Security-Policy header line may take, ${formatCount(headerBudget.min)} to ${formatCount(headerBudget.max)}. ${formatCount(headerBudget.default)} fits nginx's default proxy buffer.`}
      >
        <Input
          name="headerBudget"
          type="number"
          inputMode="numeric"
          min={headerBudget.min}
          max={headerBudget.max}
          step={256}
          value={values.headerBudget}
          onChange={set('headerBudget')}
          disabled={disabled}
        />
      </Field>
    </div>
  );
}

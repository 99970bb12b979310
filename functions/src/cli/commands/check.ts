// `csp-generator check <url>`: whether a live site serves the policy it should — the saved configuration's
// (through the API) or a file's — judged as the watch judges drift (shared/src/watch/drift.ts: the same
// sources per directive, any nonce for any nonce), with the difference printed per directive.

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseSerializedPolicy } from '@csp/shared/csp/parse-policy';
import { httpUrl } from '@csp/shared/schemas/domain';
import { type DriftVariant, policyDrift } from '@csp/shared/watch/drift';
import { API_TOKEN_ENV, API_URL_ENV, apiClientFrom } from '../api-client';
import type { Command } from '../command';
import { EXIT, FailureError, UsageError } from '../exit-codes';
import { type ExpectedPolicy, policyFromFile } from '../policy-file';
import { fetchServedHeaders } from '../served-headers';

const MAX_URLS = 20;

export const checkCommand: Command = {
  name: 'check',
  summary: 'Compare the policy a live site serves with a saved configuration or a file.',
  synopsis: 'csp-generator check <url>... (--config <id> | --policy-file F) [--report-only]',
  details: `
Fetches each URL (following redirects) and reads its Content-Security-Policy header — or, when the expected
policy is report-only, its Content-Security-Policy-Report-Only header — and compares it with the expected
policy directive by directive: the same sources in any order, any nonce for any nonce. Run it after a deploy.

  --config ID       the saved configuration's policy, through the API (needs ${API_URL_ENV} and
                    ${API_TOKEN_ENV} with the 'read' scope); its header follows its roll-out setting
  --policy-file F   a file: a header line (Content-Security-Policy: …, as 'crawl --format header' and the
                    product's csp-policy.txt write it), an nginx or Apache export, or a bare policy
  --report-only     expect the policy under Content-Security-Policy-Report-Only (files with a bare policy)

Up to ${MAX_URLS} URLs. Exit 1 when a page serves another policy (the difference is printed) or none.`,
  flags: {
    config: { type: 'string' },
    'policy-file': { type: 'string' },
    'report-only': { type: 'boolean' },
  },
  positionals: { min: 1, max: MAX_URLS },
  async run({ values, positionals }, io) {
    const urls = positionals.map((raw) => {
      const url = httpUrl('The URL must be an http(s) URL').safeParse(raw);
      if (!url.success) throw new UsageError(`${url.error.issues[0]?.message}: '${raw}'.`);
      return url.data;
    });
    const config = values.config === undefined ? undefined : String(values.config);
    const file = values['policy-file'] === undefined ? undefined : String(values['policy-file']);
    if ((config === undefined) === (file === undefined)) {
      throw new UsageError('Give the expected policy with either --config <id> or --policy-file <file>.');
    }

    let expected: ExpectedPolicy | null;
    let source: string;
    if (config !== undefined) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(config))
        throw new UsageError(`'${config}' is not a configuration id.`);
      const api = apiClientFrom(io);
      const res = await api.request('GET', `/api/csp-configurations/${config}/export?format=header`);
      expected = policyFromFile(await res.text());
      source = `configuration ${config}`;
      if (!expected) throw new FailureError(`Configuration ${config} exported no policy.`);
    } else {
      const text = await readFile(resolve(io.cwd, file!), 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new UsageError(`Cannot read --policy-file ${file}: ${err.code ?? err.message}.`);
      });
      expected = policyFromFile(text);
      source = file!;
      if (!expected) throw new UsageError(`${file} holds no policy (a header line or a bare policy).`);
      if (values['report-only']) expected = { ...expected, reportOnly: true };
    }

    const served = [];
    for (const url of urls) {
      const page = await fetchServedHeaders(url);
      // Compared all the same (an error page sends the site's headers too), but said: it may not be the page meant.
      if (page.status >= 400) io.err(`check: ${page.finalUrl} answered ${page.status}.\n`);
      served.push(page);
    }
    const drift = policyDrift(
      served.map((p) => ({ page: p.finalUrl, headers: p.headers })),
      { rules: parseSerializedPolicy(expected.value), reportOnly: expected.reportOnly },
    );
    const headerName = expected.reportOnly
      ? 'Content-Security-Policy-Report-Only'
      : 'Content-Security-Policy';

    if (values.json) {
      io.out(
        `${JSON.stringify(
          {
            state: drift.state,
            header: drift.header,
            expected: { source, value: expected.value },
            pages: served.map((p) => ({
              url: p.url,
              finalUrl: p.finalUrl,
              status: p.status,
              served: p.headers[drift.header] ?? null,
            })),
            differences: drift.variants,
          },
          null,
          2,
        )}\n`,
      );
    } else if (drift.state === 'matches') {
      io.out(
        `${served.length === 1 ? served[0]!.finalUrl : `All ${served.length} pages`} serve${served.length === 1 ? 's' : ''} ${headerName} matching ${source}.\n`,
      );
    } else {
      for (const variant of drift.variants) io.out(describeVariant(variant, headerName, source));
      const other = expected.reportOnly ? 'content-security-policy' : 'content-security-policy-report-only';
      for (const page of served.filter((p) => !p.headers[drift.header] && p.headers[other])) {
        io.out(
          `  (${page.finalUrl} serves the policy under ${expected.reportOnly ? 'Content-Security-Policy' : 'Content-Security-Policy-Report-Only'} instead)\n`,
        );
      }
    }
    return drift.state === 'matches' ? EXIT.ok : EXIT.found;
  },
};

function describeVariant(variant: DriftVariant, headerName: string, source: string): string {
  const pages = variant.pages.join(', ');
  if (variant.served === null) return `${pages}: no ${headerName} header served (expected ${source}).\n`;
  const lines = [`${pages}: the served ${headerName} differs from ${source}:`];
  for (const d of variant.differences) {
    const parts = [...d.added.map((s) => `+ ${s}`), ...d.removed.map((s) => `- ${s}`)];
    const what =
      d.change === 'added' ? 'only served' : d.change === 'removed' ? 'not served' : 'sources differ';
    lines.push(`  ${d.directive} (${what})${parts.length ? `: ${parts.join('  ')}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

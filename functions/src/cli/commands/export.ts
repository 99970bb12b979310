// `csp-generator export --config <id> --format …`: a saved configuration's export file, as the product's
// Download gives it (the API composes it: base rules, custom rules, nonce, reporting, roll-out header).
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CONFIGURATION_EXPORT_FORMATS } from '@csp/shared/schemas/configuration';
import { API_TOKEN_ENV, API_URL_ENV, apiClientFrom } from '../api-client';
import { type Command, oneOf } from '../command';
import { EXIT, FailureError, UsageError } from '../exit-codes';

export const exportCommand: Command = {
  name: 'export',
  summary: "Write a saved configuration's export file through the API.",
  synopsis: `csp-generator export --config <id> --format ${CONFIGURATION_EXPORT_FORMATS.join('|')} [--out FILE]`,
  details: `
Fetches the configuration's export with ${API_URL_ENV} and ${API_TOKEN_ENV} (scope 'read') and writes it to
FILE, or to stdout without --out. Run it before a release and ship the file with the server's configuration.

  --config ID       the configuration's id
  --format F        ${CONFIGURATION_EXPORT_FORMATS.join(', ')} (header: the Content-Security-Policy line)
  --out FILE        where to write it (replaced if it exists); default stdout`,
  flags: {
    config: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
  },
  positionals: { min: 0, max: 0 },
  async run({ values }, io) {
    const config = values.config === undefined ? '' : String(values.config);
    if (!config) throw new UsageError('--config <id> is required.');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(config)) throw new UsageError(`'${config}' is not a configuration id.`);
    if (values.format === undefined) throw new UsageError('--format is required.');
    const format = oneOf('format', String(values.format), CONFIGURATION_EXPORT_FORMATS);
    const api = apiClientFrom(io);
    const res = await api.request('GET', `/api/csp-configurations/${config}/export?format=${format}`);
    const content = await res.text();
    const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? null;
    const out = values.out === undefined ? null : String(values.out);
    if (out) {
      await writeFile(resolve(io.cwd, out), content).catch((err: NodeJS.ErrnoException) => {
        throw new FailureError(`Cannot write ${out}: ${err.code ?? err.message}`);
      });
      io.err(`export: wrote ${out} (${Buffer.byteLength(content)} bytes, ${format}).\n`);
    }
    if (values.json) {
      io.out(
        `${JSON.stringify({ config, format, filename, out, bytes: Buffer.byteLength(content), ...(out ? {} : { content }) }, null, 2)}\n`,
      );
    } else if (!out) {
      io.out(content);
    }
    return EXIT.ok;
  },
};

// The formats the CLI writes a policy in, by the names the API's export takes ('header' is the plain
// `Content-Security-Policy: …` line, csp-policy.txt), mapped to the product's one serializer.
import type { ExportFormat } from '@csp/shared/csp/serialize';

export const CLI_FORMATS = ['header', 'nginx', 'apache', 'iis', 'meta'] as const;
export type CliFormat = (typeof CLI_FORMATS)[number];

export function exportFormatOf(format: CliFormat): ExportFormat {
  return format === 'header' ? 'plain' : format;
}

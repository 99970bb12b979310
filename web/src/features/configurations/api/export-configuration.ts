// GET /api/csp-configurations/:id/export?format=: the saved configuration's policy as a server file, the
// same file a deploy pipeline fetches.
import { apiGetText, fileApi, pathParam } from '@/lib/api-client';

export type ConfigurationExportFormat = 'apache' | 'nginx' | 'iis' | 'header';

export function fetchConfigurationExport(id: string, format: ConfigurationExportFormat): Promise<string> {
  return apiGetText(
    fileApi['csp-configurations'][':id'].export.$get({ param: { id: pathParam(id) }, query: { format } }),
  );
}

/** The URL itself, shown to users who want to fetch the policy from a deploy pipeline. */
export function configurationExportPath(id: string, format: ConfigurationExportFormat): string {
  return `/api/csp-configurations/${encodeURIComponent(id)}/export?format=${format}`;
}

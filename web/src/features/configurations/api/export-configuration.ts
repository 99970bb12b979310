// GET /api/csp-configurations/:id/export?format=: the saved configuration's policy as a server file, the
// same file a deploy pipeline fetches.
import type { CONFIGURATION_EXPORT_FORMATS } from '@csp/shared/schemas/configuration';
import { apiGetText, fileApi, pathParam } from '@/lib/api-client';

export type ConfigurationExportFormat = (typeof CONFIGURATION_EXPORT_FORMATS)[number];

const exportCall = fileApi['csp-configurations'][':id'].export;
const exportArgs = (id: string, format: ConfigurationExportFormat) => ({
  param: { id: pathParam(id) },
  query: { format },
});

export function fetchConfigurationExport(id: string, format: ConfigurationExportFormat): Promise<string> {
  return apiGetText(exportCall.$get(exportArgs(id, format)));
}

/** The URL itself, shown to users who want to fetch the policy from a deploy pipeline. */
export function configurationExportPath(id: string, format: ConfigurationExportFormat): string {
  return exportCall.$path(exportArgs(id, format));
}

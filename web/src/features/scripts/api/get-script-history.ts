// GET /api/domains/:id/scripts/:key/history: what happened to one script, newest first (append-only rows).
import { type ScriptHistoryRow, scriptHistorySchema } from '@csp/shared/schemas/script-inventory';
import { useQuery } from '@tanstack/react-query';
import { api, apiGet, pathParam } from '@/lib/api-client';
import { scriptsQueryKey } from './get-scripts';

export async function getScriptHistory(domainId: string, key: string): Promise<ScriptHistoryRow[]> {
  const body = await apiGet(
    api.domains[':id'].scripts[':key'].history.$get({
      param: { id: pathParam(domainId), key: pathParam(key) },
    }),
  );
  return body === null ? [] : scriptHistorySchema.parse(body).history;
}

export function useScriptHistory(domainId: string, key: string) {
  return useQuery({
    queryKey: [...scriptsQueryKey(domainId), 'history', key],
    queryFn: () => getScriptHistory(domainId, key),
  });
}

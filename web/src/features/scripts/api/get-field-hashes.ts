// GET /api/domains/:id/scripts/field-hashes: the digests visitors' browsers reported per script, judged
// against the crawl's, and the integrity violations. One query per domain, shared by every script row.
import { type FieldDigestList, fieldDigestListSchema } from '@csp/shared/watch/field-digests';
import { useQuery } from '@tanstack/react-query';
import { api, apiGet, pathParam } from '@/lib/api-client';
import { scriptsQueryKey } from './get-scripts';

const EMPTY: FieldDigestList = { scripts: [], otherScriptReports: 0 };

export async function getFieldHashes(domainId: string): Promise<FieldDigestList> {
  const body = await apiGet(
    api.domains[':id'].scripts['field-hashes'].$get({ param: { id: pathParam(domainId) } }),
  );
  return body === null ? EMPTY : fieldDigestListSchema.parse(body);
}

export function useFieldHashes(domainId: string) {
  return useQuery({
    queryKey: [...scriptsQueryKey(domainId), 'field-hashes'],
    queryFn: () => getFieldHashes(domainId),
  });
}

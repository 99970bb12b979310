// GET /api/domains/:id/evidence: the evidence export of a period as the file the server names (CSV or JSON).
import type { EvidenceFormat } from '@csp/shared/schemas/evidence';
import { apiGetText, fileApi, pathParam } from '@/lib/api-client';

const evidenceCall = fileApi.domains[':id'].evidence;
const FILENAME = /filename="([^"]+)"/;

export async function fetchEvidence(
  domainId: string,
  q: { format: EvidenceFormat; from: string; to: string },
): Promise<{ filename: string; content: string; type: string }> {
  const res = await evidenceCall.$get({ param: { id: pathParam(domainId) }, query: q });
  const text = await apiGetText(Promise.resolve(res));
  const filename = FILENAME.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `evidence.${q.format}`;
  return q.format === 'csv'
    ? // Reading the body as text dropped the byte-order mark Excel needs to read the file as UTF-8.
      { filename, content: `\uFEFF${text}`, type: 'text/csv;charset=utf-8' }
    : { filename, content: text, type: 'application/json;charset=utf-8' };
}

// GET /api/csp/analyze/:id/integrity: the analysis' integrity tags per page template, as the file the server
// names (an HTML list of tags to paste into the templates).
import { apiGetText, fileApi, pathParam } from '@/lib/api-client';

const integrityCall = fileApi.csp.analyze[':id'].integrity;
const FILENAME = /filename="([^"]+)"/;

export async function fetchIntegrityTags(analysisId: string): Promise<{ filename: string; content: string }> {
  const res = await integrityCall.$get({ param: { id: pathParam(analysisId) } });
  const content = await apiGetText(Promise.resolve(res));
  const filename = FILENAME.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'integrity.html';
  return { filename, content };
}

// /api/docs: the OpenAPI document as a page a person reads — every operation by tag, who may call it (the
// session, an API token and its scope, admins only) and the JSON Schema of what it accepts. Rendered on the
// server as plain HTML with a style sheet of its own (/api/docs.css), so it runs under the product's own
// strict CSP: no script, no inline style, nothing from another origin. Everything shown is escaped.
import type { openApiDocument } from './openapi';

type Doc = ReturnType<typeof openApiDocument>;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

interface DocOperation {
  operationId: string;
  tags: string[];
  security: unknown[];
  'x-token-scope'?: string;
  'x-admin-only'?: boolean;
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: { 'application/json': { schema: unknown } } };
}

function who(op: DocOperation): string {
  if (op['x-admin-only']) return 'Signed-in admins';
  if (op.security.length === 0) return 'Anyone';
  return op['x-token-scope']
    ? `Signed in, or an API token with <code>${escapeHtml(op['x-token-scope'])}</code>`
    : 'Signed in (not with an API token)';
}

export function docsPage(doc: Doc): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as DocOperation;
      const params = op.parameters
        .map(
          (p) =>
            `<li><code>${escapeHtml(p.name)}</code> (${escapeHtml(p.in)}${p.required ? ', required' : ''})</li>`,
        )
        .join('');
      const body = op.requestBody
        ? `<details><summary>Request body (JSON Schema)</summary><pre>${escapeHtml(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2))}</pre></details>`
        : '';
      const html = `<section class="op" id="${escapeHtml(op.operationId)}"><h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3><p class="who">${who(op)}</p>${params ? `<ul class="params">${params}</ul>` : ''}${body}</section>`;
      const tag = op.tags[0] ?? 'api';
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const nav = [...byTag.keys()].map((t) => `<a href="#tag-${escapeHtml(t)}">${escapeHtml(t)}</a>`).join(' ');
  const sections = [...byTag]
    .map(([t, ops]) => `<h2 id="tag-${escapeHtml(t)}">${escapeHtml(t)}</h2>${ops.join('')}`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(doc.info.title)}</title><link rel="stylesheet" href="/api/docs.css"></head><body><main><h1>${escapeHtml(doc.info.title)}</h1><p>${escapeHtml(doc.info.description)}</p><p>The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(doc.openapi)}).</p><nav>${nav}</nav>${sections}</main></body></html>`;
}

export const DOCS_CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#111;background:#fff}main{max-width:60rem;margin:0 auto;padding:1.5rem}h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ddd;text-transform:capitalize}h3{font-size:1rem;margin:.2rem 0;overflow-wrap:anywhere}code,pre{font-family:ui-monospace,monospace}pre{background:#f5f5f5;padding:.75rem;overflow:auto;font-size:13px}.op{border:1px solid #e5e5e5;border-radius:6px;padding:.75rem 1rem;margin:.75rem 0}.method{display:inline-block;min-width:4.2rem;text-align:center;border-radius:4px;color:#fff;font-size:.8rem;padding:.1rem .4rem}.get{background:#1d4ed8}.post{background:#15803d}.put,.patch{background:#a16207}.delete{background:#b91c1c}.who{color:#444;margin:.25rem 0}nav a{margin-right:.75rem}`;

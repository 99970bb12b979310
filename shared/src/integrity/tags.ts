// The tags an integrity proposal gives a site's templates: `<script src integrity crossorigin>` and
// `<link rel="stylesheet" href integrity crossorigin>` for the files where SRI is safe, a comment with the
// reason for the others, grouped by page template. The URLs are what the crawled site served: attacker input,
// so every value is HTML-escaped, in attributes and in comments alike (with `<` and `>` escaped, no value can
// end a comment or open a tag).
import type { SriResource, SubresourceIntegrity } from '../schemas/subresource-integrity';
import { sriReasonText } from './proposal';

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** The tag of a file SRI is safe for; null for the others (no digest to pin, or not safe). */
export function integrityTag(r: SriResource): string | null {
  if (!r.ready || !r.sha384) return null;
  const integrity = ` integrity="${escapeHtml(r.sha384)}"`;
  const crossorigin = r.crossorigin ? ` crossorigin="${r.crossorigin}"` : '';
  return r.kind === 'script'
    ? `<script src="${escapeHtml(r.url)}"${integrity}${crossorigin}></script>`
    : `<link rel="stylesheet" href="${escapeHtml(r.url)}"${integrity}${crossorigin}>`;
}

/** The line a file gets in a template's list: its tag, or why it has none. */
export function integrityLine(r: SriResource): string {
  const tag = integrityTag(r);
  if (tag) return tag;
  const reasons = r.reasons.map((reason) => sriReasonText(reason, r.kind)).join('; ');
  return `<!-- No SRI for ${escapeHtml(r.url)}: ${escapeHtml(reasons)} -->`;
}

/** The download: a header, then per template its name (first page, page count) and its files' lines. */
export function integrityListing(
  proposal: SubresourceIntegrity,
  about: { site: string; analysisId: string; completedAt: string | null },
): string {
  const lines = [
    `<!-- Subresource Integrity for ${escapeHtml(about.site)}: analysis ${escapeHtml(about.analysisId)}` +
      `${about.completedAt ? `, ${escapeHtml(about.completedAt)}` : ''}. -->`,
    '<!-- Each group is a page template: the pages that load the same external scripts and stylesheets.',
    '     Replace their tags with these. A file without SRI says why; SRI on it would block it. -->',
  ];
  proposal.templates.forEach((template, i) => {
    const others = template.pageCount - 1;
    const more = others > 0 ? ` and ${others} more page${others === 1 ? '' : 's'}` : '';
    lines.push('', `<!-- Template ${i + 1}: ${escapeHtml(template.page)}${more} -->`);
    for (const index of template.resources) {
      const resource = proposal.resources[index];
      if (resource) lines.push(integrityLine(resource));
    }
  });
  if (proposal.templates.length === 0)
    lines.push('', '<!-- The crawl saw no external scripts or stylesheets. -->');
  const templatesLeft = proposal.templateCount - proposal.templates.length;
  const filesLeft = proposal.resourceCount - proposal.resources.length;
  if (templatesLeft > 0 || filesLeft > 0) {
    lines.push(
      '',
      `<!-- Not listed: ${templatesLeft} smaller template${templatesLeft === 1 ? '' : 's'} and ` +
        `${filesLeft} file${filesLeft === 1 ? '' : 's'} loaded on the fewest pages. -->`,
    );
  }
  return `${lines.join('\n')}\n`;
}

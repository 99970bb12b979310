// Reports that say nothing about the site: sources injected by browser extensions or the browser itself,
// and documents that are not on the domain's site (a copied policy, a proxy, a forged report).
import type { FieldReport } from '../schemas/field-report';
import type { NormalizedReport } from '../schemas/report';
import { NOISE_PREFIXES } from './limits';

export function isBrowserNoise(value: string | undefined): boolean {
  if (!value) return false;
  const v = value.trim().toLowerCase();
  return NOISE_PREFIXES.some((p) => v.startsWith(p));
}

/**
 * The host a domain's site is recognised by: its URL's host without a leading "www.". Documents on that
 * host and its subdomains are on the site (shop.example.com for www.example.com).
 */
export function siteHost(domainUrl: string): string {
  const host = new URL(domainUrl).hostname.toLowerCase();
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** The lowercased host of an http(s) URL; null for anything else. */
function webHost(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  return u.hostname.toLowerCase();
}

/**
 * Hosts of the document URLs seen last: a site's reports come from its pages, again and again, and parsing
 * the URL is the dearest check of a report. Bounded (a flood of distinct URLs only empties it).
 */
const recentHosts = new Map<string, string | null>();
const RECENT_HOSTS = 1000;

function documentHost(url: string): string | null {
  let host = recentHosts.get(url);
  if (host === undefined) {
    host = webHost(url);
    if (recentHosts.size >= RECENT_HOSTS) recentHosts.clear();
    recentHosts.set(url, host);
  }
  return host;
}

export function isOnSite(url: string, site: string): boolean {
  const host = documentHost(url);
  return host !== null && (host === site || host.endsWith(`.${site}`));
}

/** Why the report is noise, or null when it is about the site. */
export function noiseReason(report: NormalizedReport, site: string): 'extension' | 'offsite' | null {
  if (
    isBrowserNoise(report.blockedUri) ||
    isBrowserNoise(report.sourceFile) ||
    isBrowserNoise(report.documentUri)
  ) {
    return 'extension';
  }
  if (!isOnSite(report.documentUri, site)) return 'offsite';
  return null;
}

/** The same rule for a field-hash report: its script and its document. */
export function fieldNoiseReason(report: FieldReport, site: string): 'extension' | 'offsite' | null {
  if (isBrowserNoise(report.scriptUrl) || isBrowserNoise(report.documentUri)) return 'extension';
  if (!isOnSite(report.documentUri, site)) return 'offsite';
  return null;
}

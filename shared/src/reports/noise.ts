// Reports that say nothing about the site: sources injected by browser extensions or the browser itself,
// and documents that are not on the domain's site (a copied policy, a proxy, a forged report).
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

export function isOnSite(url: string, site: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return false;
  const host = u.hostname.toLowerCase();
  return host === site || host.endsWith(`.${site}`);
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

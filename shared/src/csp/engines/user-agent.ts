// A violation report's user agent → the engine family that enforced the policy: what CSP does differs by
// engine (table.ts), not by brand, so Edge, Opera, Samsung Internet and Brave are Chromium, and every
// browser on iOS/iPadOS is WebKit (Apple requires it there: Firefox for iOS, Chrome for iOS, Edge for iOS
// report as Safari). The text is attacker input: it is cut to a fixed length and only searched for fixed
// tokens (no regular expression backtracks over it). Pure.
import * as z from 'zod';
import { ENGINE_NAMES, ENGINES, type Engine } from './table';

export const ENGINE_FAMILIES = [...ENGINES, 'other'] as const;
export const engineFamilySchema = z.enum(ENGINE_FAMILIES);
export type EngineFamily = z.infer<typeof engineFamilySchema>;

export const ENGINE_FAMILY_NAMES: Record<EngineFamily, string> = { ...ENGINE_NAMES, other: 'Other' };

/** Longer user agents are cut here before they are read (ingest keeps 512 characters already). */
export const MAX_USER_AGENT_CHARS = 512;

/** Tokens of iOS / iPadOS browsers, which all run WebKit whatever their brand. */
const IOS_TOKENS = ['iPhone', 'iPad', 'iPod', 'CriOS/', 'FxiOS/', 'EdgiOS/'];
const CHROMIUM_TOKENS = ['Chrome/', 'Chromium/', 'HeadlessChrome/', 'Edg/', 'OPR/', 'SamsungBrowser/'];

export function engineFamily(userAgent: string | null | undefined): EngineFamily {
  if (typeof userAgent !== 'string' || userAgent === '') return 'other';
  const ua = userAgent.slice(0, MAX_USER_AGENT_CHARS);
  const has = (token: string) => ua.includes(token);
  if (IOS_TOKENS.some(has) && has('AppleWebKit/')) return 'safari';
  if (has('Firefox/') && has('Gecko/')) return 'firefox';
  if (CHROMIUM_TOKENS.some(has) && has('AppleWebKit/')) return 'chromium';
  if (has('AppleWebKit/') && has('Safari/') && has('Version/')) return 'safari';
  return 'other';
}

export const engineCountsSchema = z.object({
  chromium: z.number().int(),
  firefox: z.number().int(),
  safari: z.number().int(),
  other: z.number().int(),
});
export type EngineCounts = z.infer<typeof engineCountsSchema>;

/** How many of the given reports each engine family sent. */
export function countEngines(userAgents: Iterable<string | null | undefined>): EngineCounts {
  const counts: EngineCounts = { chromium: 0, firefox: 0, safari: 0, other: 0 };
  for (const ua of userAgents) counts[engineFamily(ua)] += 1;
  return counts;
}

/**
 * The one engine every report came from, when there were reports and all of them name the same engine (a
 * report with an unknown user agent could be from any engine, so it leaves the answer open).
 */
export function onlyEngine(counts: EngineCounts): Engine | null {
  if (counts.other > 0) return null;
  const engines = ENGINES.filter((e) => counts[e] > 0);
  return engines.length === 1 ? engines[0]! : null;
}

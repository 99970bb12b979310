// The configuration editor's rules as pure functions (spec sections 4 and 5): adding a custom rule
// (trimmed, ignored if empty, not duplicated) and taking, ignoring or un-ignoring a report suggestion.
import { isDirective, KEYWORDS } from '../csp/directives';
import type { CspRules } from '../csp/policy';
import { dictionary, ownValue } from '../maps/dictionary';
import { targetDirective } from '../reports/suggestions';
import { cspSourceSchema, isSavableDirectiveName } from '../schemas/configuration';

const KEYWORD_NAMES = new Map<string, string>(KEYWORDS.map((k) => [k.slice(1, -1), k]));

/**
 * What a user typed, as a source: trimmed, keywords quoted and lower-cased (`self` and `'SELF'` are
 * `'self'`: an unquoted `self` would be a host named "self"). Null when empty; an error when no header
 * could carry it.
 */
export function normalizeSource(input: string): { source: string } | { error: string } | null {
  const trimmed = input.trim();
  if (trimmed === '') return null;
  const bare = trimmed.replace(/^'(.*)'$/, '$1').toLowerCase();
  const keyword = KEYWORD_NAMES.get(bare);
  if (keyword) return { source: keyword };
  const parsed = cspSourceSchema.safeParse(trimmed);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Invalid source' };
  // Other quoted keywords are case-insensitive too; nonce and hash values are not.
  const quotedKeyword = trimmed.startsWith("'") && !/^'(nonce|sha256|sha384|sha512)-/i.test(trimmed);
  return { source: quotedKeyword ? trimmed.toLowerCase() : trimmed };
}

// Directives here come from reports too (a browser, or anyone, names them): read by own key and written
// into dictionaries, so `constructor` is an absent directive and `__proto__` a key, not a prototype.
function withSource(rules: CspRules, directive: string, source: string): CspRules {
  const current = ownValue(rules, directive) ?? [];
  if (current.includes(source)) return rules;
  const out = dictionary(rules);
  out[directive] = [...current, source];
  return out;
}

function withoutSource(rules: CspRules, directive: string, source: string): CspRules {
  const current = ownValue(rules, directive);
  if (!current?.includes(source)) return rules;
  const kept = current.filter((s) => s !== source);
  const out = dictionary(rules);
  if (kept.length) out[directive] = kept;
  else delete out[directive];
  return out;
}

export type AddRuleResult = { customRules: CspRules; added: string | null; error?: string };

/** Spec: trimmed, ignored if empty, not duplicated. */
export function addCustomRule(customRules: CspRules, directive: string, input: string): AddRuleResult {
  if (!isSavableDirectiveName(directive)) {
    return { customRules, added: null, error: 'Choose a directive' };
  }
  const normalized = normalizeSource(input);
  if (normalized === null) return { customRules, added: null };
  if ('error' in normalized) return { customRules, added: null, error: normalized.error };
  const next = withSource(customRules, directive, normalized.source);
  return { customRules: next, added: next === customRules ? null : normalized.source };
}

export function removeCustomRule(customRules: CspRules, directive: string, source: string): CspRules {
  return withoutSource(customRules, directive, source);
}

export interface SuggestionState {
  customRules: CspRules;
  ignoredSuggestions: CspRules;
}

/**
 * The directive a taken suggestion goes into, for the policy as it stands: the one a browser consults
 * (script-src-elem reports go into script-src when only that is set). Where only default-src governs, the
 * new directive starts as a copy of default-src, so what default-src allowed stays allowed.
 */
export function suggestionTarget(
  composed: CspRules,
  reported: string,
): { directive: string; inherit: string[] } {
  const directive = targetDirective(reported, composed);
  const inherit =
    ownValue(composed, directive) === undefined && isDirective(directive)
      ? (composed['default-src'] ?? [])
      : [];
  return { directive, inherit };
}

/**
 * Whether a suggestion can go into the saved maps at all: a report may name any directive, and one named
 * like what every object inherits (`constructor`) is refused by the API, so it is neither accepted nor ignored.
 */
export function isSuggestionSavable(
  composed: CspRules,
  suggestion: { directive: string; source: string },
): boolean {
  return (
    isSavableDirectiveName(suggestion.directive) &&
    isSavableDirectiveName(suggestionTarget(composed, suggestion.directive).directive)
  );
}

/** Spec: accepted means added to the custom rules and removed from the ignored list. */
export function acceptSuggestion(
  state: SuggestionState,
  composed: CspRules,
  suggestion: { directive: string; source: string },
): SuggestionState {
  const { directive, inherit } = suggestionTarget(composed, suggestion.directive);
  let customRules = state.customRules;
  for (const s of inherit) customRules = withSource(customRules, directive, s);
  customRules = withSource(customRules, directive, suggestion.source);
  return {
    customRules,
    ignoredSuggestions: withoutSource(state.ignoredSuggestions, suggestion.directive, suggestion.source),
  };
}

export function ignoreSuggestion(
  state: SuggestionState,
  s: { directive: string; source: string },
): SuggestionState {
  return { ...state, ignoredSuggestions: withSource(state.ignoredSuggestions, s.directive, s.source) };
}

export function unignoreSuggestion(
  state: SuggestionState,
  s: { directive: string; source: string },
): SuggestionState {
  return { ...state, ignoredSuggestions: withoutSource(state.ignoredSuggestions, s.directive, s.source) };
}

/** Where a suggestion stands: accepted (its source is allowed by the custom rules), ignored, or open. */
export function suggestionStatus(
  state: SuggestionState,
  composed: CspRules,
  s: { directive: string; source: string },
): 'accepted' | 'ignored' | 'open' {
  if (ownValue(state.ignoredSuggestions, s.directive)?.includes(s.source)) return 'ignored';
  const { directive } = suggestionTarget(composed, s.directive);
  return ownValue(state.customRules, directive)?.includes(s.source) ? 'accepted' : 'open';
}

// The configuration editor's state and how it maps to and from a saved configuration (spec section 4):
// New clears every field and makes a fresh nonce; loading restores the fields, and the nonce only if it was
// enabled; which saved configuration the panel opens on. Pure, so it is tested without a browser.
import type { IntegrityPolicyMode } from '@csp/shared/csp/integrity-policy';
import { createNonce } from '@csp/shared/csp/nonce';
import type { CspRules } from '@csp/shared/csp/policy';
import type { TrustedTypesMode } from '@csp/shared/csp/trusted-types-names';
import type { Configuration, ConfigurationBody, ServerType } from '@csp/shared/schemas/configuration';

export interface EditorState {
  /** The loaded configuration (saved with PUT), or null for a new one (saved with POST). */
  selectedId: string | null;
  name: string;
  description: string;
  baseAnalysisId: string;
  /** The base analysis' rules, copied when it is chosen. */
  cspRules: CspRules;
  customRules: CspRules;
  ignoredSuggestions: CspRules;
  includeUriReports: boolean;
  includeReportUri: boolean;
  reportOnlyMode: boolean;
  reportOnlyPolicy: boolean;
  serverType: ServerType;
  isActive: boolean;
  nonce: string;
  includeNonce: boolean;
  integrityPolicy: IntegrityPolicyMode;
  reportSha256: boolean;
  trustedTypes: TrustedTypesMode;
  /** The `trusted-types` names as typed: separated by spaces or commas (see policyNamesOf). */
  trustedTypesNames: string;
}

/** The names typed in the Trusted Types field, as the list a configuration saves. */
export function policyNamesOf(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

export function blankState(nonce = createNonce()): EditorState {
  return {
    selectedId: null,
    name: '',
    description: '',
    baseAnalysisId: '',
    cspRules: {},
    customRules: {},
    ignoredSuggestions: {},
    includeUriReports: false,
    includeReportUri: true,
    reportOnlyMode: false,
    reportOnlyPolicy: false,
    serverType: 'apache',
    isActive: true,
    nonce,
    includeNonce: false,
    integrityPolicy: 'off',
    reportSha256: false,
    trustedTypes: 'off',
    trustedTypesNames: '',
  };
}

export function stateOf(c: Configuration, freshNonce = createNonce()): EditorState {
  return {
    selectedId: c.id,
    name: c.name,
    description: c.description,
    baseAnalysisId: c.baseAnalysisId ?? '',
    cspRules: c.cspRules,
    customRules: c.customRules,
    ignoredSuggestions: c.ignoredSuggestions,
    includeUriReports: c.includeUriReports,
    includeReportUri: c.includeReportUri,
    reportOnlyMode: c.reportOnlyMode,
    reportOnlyPolicy: c.metadata.reportOnlyPolicy,
    serverType: c.serverType,
    isActive: c.isActive,
    nonce: c.metadata.includeNonce && c.metadata.nonce ? c.metadata.nonce : freshNonce,
    includeNonce: c.metadata.includeNonce,
    integrityPolicy: c.metadata.integrityPolicy,
    reportSha256: c.metadata.reportSha256,
    trustedTypes: c.metadata.trustedTypes,
    trustedTypesNames: c.metadata.trustedTypesPolicies.join(' '),
  };
}

export function bodyOf(s: EditorState): ConfigurationBody {
  return {
    name: s.name.trim(),
    description: s.description.trim(),
    baseAnalysisId: s.baseAnalysisId || null,
    cspRules: s.cspRules,
    customRules: s.customRules,
    ignoredSuggestions: s.ignoredSuggestions,
    includeUriReports: s.includeUriReports,
    includeReportUri: s.includeReportUri,
    reportOnlyMode: s.reportOnlyMode,
    serverType: s.serverType,
    isActive: s.isActive,
    metadata: {
      nonce: s.includeNonce ? s.nonce : null,
      includeNonce: s.includeNonce,
      reportOnlyPolicy: s.reportOnlyPolicy,
      integrityPolicy: s.integrityPolicy,
      reportSha256: s.reportSha256,
      trustedTypes: s.trustedTypes,
      trustedTypesPolicies: policyNamesOf(s.trustedTypesNames),
    },
  };
}

/**
 * Unsaved changes: what would be saved differs from the reference, the configuration as it was opened or
 * last saved (for a new one, the editor as it started, with the latest analysis as its base).
 */
export function isDirty(s: EditorState, reference: EditorState): boolean {
  return JSON.stringify(bodyOf(s)) !== JSON.stringify(bodyOf(reference));
}

/**
 * The configuration the panel opens on: the active one saved last, else the one saved last, so a user
 * finds what they saved (its name, mode, nonce and server) when they come back.
 */
export function openingConfiguration(configurations: Configuration[]): Configuration | undefined {
  const latest = (cs: Configuration[]) =>
    cs.reduce<Configuration | undefined>((a, c) => (!a || c.updatedAt >= a.updatedAt ? c : a), undefined);
  return latest(configurations.filter((c) => c.isActive)) ?? latest(configurations);
}

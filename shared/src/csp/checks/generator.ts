// The generator's own findings (why a source is there, trades made to fit the header, unstable inline
// code, pages not fully captured) come into the audit as one check, as they were written.
import type { PolicyCheck } from './check';

/** Passes context.generatorFindings through (severities as the generator set them). */
export const generatorCheck: PolicyCheck = (_policy, context) => context.generatorFindings;

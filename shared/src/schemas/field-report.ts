// Field-hash reports of the Reporting API, as browsers send them and as the report queue carries them:
//   csp-hash             {documentURL, subresourceURL, hash: 'sha256-…', type: 'subresource', destination}
//                        (CSP3 'report-sha256': the digest of a script the browser loaded; Chrome 133+)
//   integrity-violation  {documentURL, blockedURL, destination, reportOnly}
//                        (Integrity-Policy(-Report-Only): a script loaded without integrity; Chrome 138+)
// Every field is attacker input: URLs are cut like a CSP report's and must be http(s) (or a browser's own
// scheme, which the noise filter drops as 'extension'), a digest is the SHA-256 a browser writes or nothing.
import * as z from 'zod';
import { NOISE_PREFIXES, REPORT_LIMITS } from '../reports/limits';

/** `sha256-` and the standard base64 of 32 bytes (43 characters, the last with its two low bits zero, then `=`). */
export const SHA256_DIGEST = /^sha256-[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

const isWebOrNoiseUrl = (v: string) => {
  const lower = v.toLowerCase();
  if (NOISE_PREFIXES.some((p) => lower.startsWith(p))) return true;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
};

const reportUrl = (name: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.slice(0, REPORT_LIMITS.maxUrlChars) : v),
    z
      .string({ message: `${name} is required` })
      .min(1, `${name} is required`)
      .refine(isWebOrNoiseUrl, `${name} must be an http(s) URL`),
  );

const destination = z.string({ message: 'body.destination is required' }).max(32);

export const cspHashBodySchema = z.object(
  {
    documentURL: reportUrl('body.documentURL'),
    subresourceURL: reportUrl('body.subresourceURL'),
    hash: z
      .string({ message: 'body.hash is required' })
      .regex(SHA256_DIGEST, 'body.hash must be sha256- and the base64 of 32 bytes'),
    type: z.string().max(32).optional(),
    destination,
  },
  { message: 'A csp-hash report needs a body object' },
);

export const integrityViolationBodySchema = z.object(
  {
    documentURL: reportUrl('body.documentURL'),
    blockedURL: reportUrl('body.blockedURL'),
    destination,
    reportOnly: z.boolean().optional(),
  },
  { message: 'An integrity-violation report needs a body object' },
);

/** The Reporting API types read as field hashes (every other type but csp-violation is other-type). */
export const FIELD_REPORT_TYPES = ['csp-hash', 'integrity-violation'] as const;

/** A field-hash report as the ingest handler hands it to the queue. */
export const fieldReportSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('hash'),
    documentUri: z.string().max(REPORT_LIMITS.maxUrlChars),
    scriptUrl: z.string().max(REPORT_LIMITS.maxUrlChars),
    digest: z.string().regex(SHA256_DIGEST),
    reportedAt: z.string(),
  }),
  z.object({
    kind: z.literal('integrity'),
    documentUri: z.string().max(REPORT_LIMITS.maxUrlChars),
    scriptUrl: z.string().max(REPORT_LIMITS.maxUrlChars),
    /** Reported under Integrity-Policy-Report-Only (loaded) rather than Integrity-Policy (blocked). */
    reportOnly: z.boolean(),
    reportedAt: z.string(),
  }),
]);
export type FieldReport = z.infer<typeof fieldReportSchema>;

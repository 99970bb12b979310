// Proof-of-work (ALTCHA): HMAC-signed, expiring challenges; a solution is accepted once (a guard item keyed
// by the challenge signature lives until the challenge expires).
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import * as z from 'zod';
import { AppError } from '../errors';
import { markChallengeUsed } from '../store/altcha-challenges';
import { type Db, epochSeconds } from '../store/db';

export interface AltchaSettings {
  hmacKey: string;
  maxNumber: number;
  expireSeconds: number;
}

const ALGORITHM = 'SHA-256';

export async function newChallenge(s: AltchaSettings) {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: 1,
    deriveKey,
    // Deterministic mode: the server picks the counter, so verification checks a key signature, not a search.
    counter: randomInt(s.maxNumber, Math.floor(s.maxNumber / 10)),
    hmacSignatureSecret: s.hmacKey,
    hmacKeySignatureSecret: `${s.hmacKey}:key`,
    expiresAt: epochSeconds() + s.expireSeconds,
  });
}

const payloadSchema = z.object({
  challenge: z.object({
    parameters: z
      .object({
        algorithm: z.string(),
        nonce: z.string(),
        salt: z.string(),
        cost: z.number(),
        keyLength: z.number(),
        keyPrefix: z.string(),
        expiresAt: z.number().optional(),
      })
      .loose(),
    signature: z.string().min(1),
  }),
  solution: z.object({ counter: z.number().int().nonnegative(), derivedKey: z.string() }).loose(),
});

const REQUIRED = 'Security verification is required: please complete the verification widget';

/** Verifies the widget's payload (base64 JSON) and marks it used. Throws a 400 AppError when not accepted. */
export async function consumeAltcha(db: Db, s: AltchaSettings, payload: string | undefined): Promise<void> {
  if (!payload) throw new AppError(400, REQUIRED);
  let decoded: z.infer<typeof payloadSchema>;
  try {
    decoded = payloadSchema.parse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
  } catch {
    throw new AppError(400, 'Security verification failed: the payload is malformed');
  }
  if (decoded.challenge.parameters.algorithm !== ALGORITHM) {
    throw new AppError(400, 'Security verification failed: unexpected algorithm');
  }
  const result = await verifySolution({
    challenge: decoded.challenge as never,
    solution: decoded.solution as never,
    deriveKey,
    hmacSignatureSecret: s.hmacKey,
    hmacKeySignatureSecret: `${s.hmacKey}:key`,
  });
  if (result.expired) throw new AppError(400, 'Security verification expired: please verify again');
  if (!result.verified) throw new AppError(400, 'Security verification failed: please verify again');
  const expiresAt = decoded.challenge.parameters.expiresAt ?? epochSeconds() + s.expireSeconds;
  if (!(await markChallengeUsed(db, decoded.challenge.signature, expiresAt + 60))) {
    throw new AppError(400, 'Security verification already used: please verify again');
  }
}

// The proof-of-work challenge of forms with `captcha: "pow"`, in the format of the ALTCHA widget the pages serve: a
// signed challenge the browser solves, and the solution (field `altcha`) checked here, once.
import { hkdfSync } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/** The derivation the widget repeats; SHA-256 runs in every browser's Web Crypto. */
export const POW_ALGORITHM = 'SHA-256';
/** How many derivations a browser needs on average is half of this (a few hundred milliseconds on a phone). */
const MAX_COUNTER = 50_000;
const MIN_COUNTER = 5_000;
/** A challenge is good for this long after the page asked for it. */
export const CHALLENGE_TTL_SECONDS = 20 * 60;

export interface PowSecrets {
  signature: string;
  key: string;
}

/** The HMAC keys of challenges and of their expected keys, derived from the app secret (no key of their own). */
export function powSecrets(appSecret: string): PowSecrets {
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', appSecret, 'herald-forms-pow', purpose, 32)).toString('hex');
  return { signature: derive('challenge'), key: derive('key') };
}

/** A new challenge for one form, valid CHALLENGE_TTL_SECONDS. */
export function newChallenge(secrets: PowSecrets, formId: string): Promise<Challenge> {
  return createChallenge({
    algorithm: POW_ALGORITHM,
    cost: 1,
    counter: randomInt(MIN_COUNTER, MAX_COUNTER),
    deriveKey,
    data: { form: formId },
    expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS,
    hmacSignatureSecret: secrets.signature,
    hmacKeySignatureSecret: secrets.key,
  });
}

export type PowCheck = { ok: true; signature: string; expiresAt: Date } | { ok: false; reason: string };

/** The widget's payload (base64 JSON), or null when it is not one. */
function decodePayload(value: string): Payload | null {
  if (value.length > 8192) return null;
  try {
    const payload = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Partial<Payload> | null;
    const challenge = payload?.challenge;
    if (!challenge || typeof challenge !== 'object' || typeof challenge.parameters !== 'object') return null;
    if (!challenge.parameters || typeof payload.solution !== 'object' || payload.solution === null) return null;
    return payload as Payload;
  } catch {
    return null;
  }
}

/**
 * Checks a solution for `formId`: a challenge Herald signed for this form, not expired, solved. Whether it was used
 * before is the caller's to check (by the returned signature), in the transaction of the submission.
 */
export async function checkSolution(secrets: PowSecrets, formId: string, value: unknown): Promise<PowCheck> {
  if (typeof value !== 'string' || value === '') return { ok: false, reason: 'missing' };
  const payload = decodePayload(value);
  if (!payload) return { ok: false, reason: 'malformed' };
  const { parameters, signature } = payload.challenge;
  if (typeof signature !== 'string' || parameters.data?.form !== formId || !parameters.expiresAt)
    return { ok: false, reason: 'foreign' };
  const result = await verifySolution({
    challenge: payload.challenge,
    solution: payload.solution,
    deriveKey,
    hmacSignatureSecret: secrets.signature,
    hmacKeySignatureSecret: secrets.key,
  }).catch(() => null);
  if (!result?.verified) return { ok: false, reason: result?.expired ? 'expired' : 'invalid' };
  return { ok: true, signature, expiresAt: new Date(parameters.expiresAt * 1000) };
}

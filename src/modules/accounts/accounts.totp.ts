// Two-factor codes (TOTP, RFC 6238: SHA-1, 6 digits, 30 s) with otpauth; the secret is kept sealed.
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { hashSecret } from '../../lib/keys.ts';

const ISSUER = 'Herald';

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new secret (base32) and the otpauth:// URL an authenticator app reads from a QR code. */
export function newTotpSecret(label: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpOf(secret, label).toString() };
}

/**
 * The time step of a code that is right now (one step of clock drift either way), or null. A step at or before
 * `lastStep` is refused: a code is good once.
 */
export function checkTotp(
  secretBase32: string,
  code: string,
  lastStep: number | null,
  now = Date.now(),
): number | null {
  const digits = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(digits)) return null;
  const delta = totpOf(secretBase32, 'check').validate({ token: digits, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now / 30_000) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** Ten recovery codes (`xxxxx-xxxxx`, 40 random bits each) and their hashes. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: 10 }, () => {
    const hex = randomBytes(5).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
  return { codes, hashes: codes.map(recoveryCodeHash) };
}

export function recoveryCodeHash(code: string): string {
  return hashSecret(code.trim().toLowerCase().replace(/\s+/g, ''));
}

export const looksLikeRecoveryCode = (code: string) => /^[0-9a-f]{5}-?[0-9a-f]{5}$/i.test(code.trim());

export { ISSUER };

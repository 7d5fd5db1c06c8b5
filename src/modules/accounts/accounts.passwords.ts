import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import common from './common-passwords.json' with { type: 'json' };
import { validationError } from '../../lib/errors.ts';

/**
 * scrypt with N = 2^15, r = 8, p = 1 (32 MB and about 50–100 ms per hash on one core), a 16-byte salt and a 32-byte
 * result; the parameters live in the stored string, so raising them later leaves older hashes readable.
 */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

const commonPasswords = new Set(common.passwords.map((p) => p.toLowerCase()));

function scrypt(
  password: string,
  salt: Buffer,
  options: { N: number; r: number; p: number },
  keyLength: number,
): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { ...options, maxmem: 128 * options.N * options.r * 2 };
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, keyLength, scryptOptions, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** The stored form: `scrypt$N$r$p$salt$hash` (salt and hash in base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT, SCRYPT.keyLength);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * A hash of nothing anyone knows, checked when there is no account, so an unknown address takes as long as a wrong
 * password.
 */
let decoy: Promise<string> | null = null;

/** Whether `password` matches `stored`; with no stored hash, spends the same time and answers false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const target = stored ?? (await (decoy ??= hashPassword(randomBytes(18).toString('base64url'))));
  const [scheme, n, r, p, salt, hash] = target.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(
    password,
    Buffer.from(salt, 'base64url'),
    { N: Number(n), r: Number(r), p: Number(p) },
    expected.length,
  );
  return timingSafeEqual(key, expected) && stored !== null;
}

/** The password rules: a 422 naming the one broken (never echoing the password). */
export function checkPasswordRules(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN)
    throw validationError(field, `The password must be at least ${PASSWORD_MIN} characters long`, 'too_short');
  if (password.length > PASSWORD_MAX)
    throw validationError(field, `The password must be at most ${PASSWORD_MAX} characters long`, 'too_long');
  if (commonPasswords.has(password.toLowerCase())) {
    throw validationError(
      field,
      'This password is one of the 10,000 most common passwords: choose another',
      'too_common',
    );
  }
}

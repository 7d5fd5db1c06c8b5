import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../lib/keys.ts';

/** A new secret for a cookie or a one-time link (32 random bytes) and the hash that is stored instead of it. */
export function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret) };
}

export { hashSecret };

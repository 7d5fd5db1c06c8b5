import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyType = 'secret' | 'public';

/** What a key may do: everything, only the sending routes, or only GET routes. */
export const KEY_SCOPES = ['full', 'sending', 'read'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** The scopes that may call a route: `full` always, and what it declares (nothing: `full` only). */
export function admittedScopes(scope: KeyScope | readonly KeyScope[] | undefined): KeyScope[] {
  return [...new Set<KeyScope>(['full', ...[scope ?? 'full'].flat()])];
}

const prefixes: Record<KeyType, string> = { secret: 'sk_', public: 'pk_' };

/** A new API key: the full key (shown once), its hash (stored) and a short prefix (shown in lists). */
export function generateApiKey(type: KeyType): { key: string; hash: string; prefix: string } {
  const key = prefixes[type] + randomBytes(24).toString('base64url');
  return { key, hash: hashSecret(key), prefix: key.slice(0, 10) };
}

/** SHA-256 of a high-entropy secret; keys are looked up by this, never stored in clear. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The key type a bearer value claims by its prefix, or null when it is no key of ours. */
export function keyTypeOf(value: string): KeyType | null {
  if (value.startsWith('sk_')) return 'secret';
  if (value.startsWith('pk_')) return 'public';
  return null;
}

/** Compares two secrets in constant time (by their digests, so lengths do not leak either). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets kept at rest (a TOTP secret, a transport's password) are sealed with AES-256-GCM under a key derived
 * from the instance's APP_SECRET (HKDF-SHA256, one key per purpose): `v1.<iv>.<ciphertext>.<tag>`, base64url.
 */
function keyFor(appSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'herald-seal', purpose, 32));
}

export function seal(appSecret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(appSecret, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(
    '.',
  );
}

/** The sealed value's plaintext; throws when it was sealed under another secret or purpose, or changed. */
export function unseal(appSecret: string, purpose: string, sealed: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('Not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(appSecret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

// DKIM key material for sender domains: generation, the DNS TXT record, and encryption at rest.
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  generateKeyPair,
  hkdfSync,
  randomBytes,
} from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPairAsync = promisify(generateKeyPair);

export const DKIM_KEY_BITS = 2048;
const ENCRYPTION_VERSION = 'v1';
const HKDF_INFO = 'herald:dkim-private-key:v1';
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface DkimKeyPair {
  /** PKCS#8 PEM; encrypt it with encryptPrivateKey before storing it. */
  privateKeyPem: string;
  /** The `p=` value: base64 DER SubjectPublicKeyInfo, no line breaks. */
  publicKeyBase64: string;
}

export class DkimKeyError extends Error {
  override name = 'DkimKeyError';
}

// One RSA-2048 key per domain (RFC 8301); async so key generation does not block the event loop.
export async function generateDkimKeyPair(): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: DKIM_KEY_BITS,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyBase64: publicKey.toString('base64') };
}

// Selectors are never reused across keys: `<prefix><yyyymm>`, e.g. herald202611.
export function defaultDkimSelector(now: Date = new Date(), prefix = 'herald'): string {
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${prefix}${now.getUTCFullYear()}${month}`;
}

// The DNS name the DKIM public key is published under (RFC 6376 §3.6.2.1).
export function dkimRecordName(selector: string, domain: string): string {
  return `${selector}._domainkey.${domain}`;
}

// The TXT value a user publishes; verification compares it exactly.
export function dkimTxtValue(publicKeyBase64: string): string {
  return `v=DKIM1; k=rsa; p=${publicKeyBase64}`;
}

// A 2048-bit key does not fit one 255-octet DNS character-string, so users are shown the pieces.
export function splitTxtValue(value: string, maxLength = 255): string[] {
  if (maxLength < 1) throw new RangeError('maxLength must be positive');
  const chunks: string[] = [];
  for (let i = 0; i < value.length; i += maxLength) chunks.push(value.slice(i, i + maxLength));
  return chunks.length > 0 ? chunks : [''];
}

// Zone-file form of the split value: `"chunk1" "chunk2"`, the way most DNS panels accept long TXT records.
export function quoteTxtStrings(chunks: readonly string[]): string {
  return chunks.map((c) => `"${c.replace(/["\\]/g, (m) => `\\${m}`)}"`).join(' ');
}

function deriveKey(secret: string | Buffer, salt: Buffer): Buffer {
  if (secret.length === 0) throw new DkimKeyError('encryption secret is empty');
  return Buffer.from(hkdfSync('sha256', secret, salt, HKDF_INFO, 32));
}

// Private keys are stored encrypted: AES-256-GCM, per-record salt + HKDF of the app secret.
// Format: `v1.<salt>.<iv>.<tag>.<ciphertext>` (base64url). `context` (e.g. the domain id) is bound as
// associated data, so a ciphertext copied onto another row does not decrypt.
export function encryptPrivateKey(privateKeyPem: string, secret: string | Buffer, context = ''): string {
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, salt), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(privateKeyPem, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [ENCRYPTION_VERSION, salt, iv, tag, ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

// Reverses encryptPrivateKey; a wrong secret, context or a tampered value throws DkimKeyError.
export function decryptPrivateKey(encrypted: string, secret: string | Buffer, context = ''): string {
  const parts = encrypted.split('.');
  if (parts.length !== 5 || parts[0] !== ENCRYPTION_VERSION) {
    throw new DkimKeyError('unsupported encrypted key format');
  }
  const [salt, iv, tag, ciphertext] = parts.slice(1).map((p) => Buffer.from(p, 'base64url')) as [
    Buffer,
    Buffer,
    Buffer,
    Buffer,
  ];
  if (salt.length !== SALT_BYTES || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new DkimKeyError('malformed encrypted key');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', deriveKey(secret, salt), iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new DkimKeyError('cannot decrypt DKIM private key (wrong secret or corrupted value)');
  }
}

// Parses a PEM once so the signer does not re-parse it for every message.
export function loadPrivateKey(privateKeyPem: string): KeyObject {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'rsa') throw new DkimKeyError('DKIM key must be RSA');
  return key;
}

// VERP return paths: `bounces+<token>@bounces.<sender domain>`, where the token is the email id
// and a MAC over it, so a bounce or complaint maps to exactly one email without trusting anything else in it.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 10; // 80 bits: guessing one valid token takes ~2^79 tries, and the local part stays short
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'; // RFC 4648 base32, lower case: survives case-folding MTAs
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function verpKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'herald-verp', 'herald:verp:v1', 32));
}

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): Buffer | null {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    const index = ALPHABET.indexOf(char);
    if (index === -1) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

function mac(key: Buffer, id: Buffer): Buffer {
  return createHmac('sha256', key).update(id).digest().subarray(0, MAC_BYTES);
}

/** The token of an email id: base32 of the id's 16 bytes and a truncated HMAC over them. */
export function createVerpToken(secret: string, emailId: string): string {
  if (!UUID.test(emailId)) throw new Error('VERP tokens are made for email ids (UUIDs)');
  const id = Buffer.from(emailId.replaceAll('-', ''), 'hex');
  return base32(Buffer.concat([id, mac(verpKey(secret), id)]));
}

/** The email id a token stands for, or null when it is malformed or its MAC does not verify (constant time). */
export function readVerpToken(secret: string, token: string): string | null {
  const bytes = token.length === 42 ? unbase32(token.toLowerCase()) : null;
  if (!bytes || bytes.length !== 16 + MAC_BYTES) return null;
  const id = bytes.subarray(0, 16);
  if (!timingSafeEqual(bytes.subarray(16), mac(verpKey(secret), id))) return null;
  const hex = id.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The envelope sender of an email: its bounces land at the feedback receiver and name the email. */
export function returnPathFor(secret: string, emailId: string, senderDomain: string): string {
  return `bounces+${createVerpToken(secret, emailId)}@bounces.${senderDomain.toLowerCase()}`;
}

/** Parses `bounces+<token>@bounces.<domain>`: the email id and the sender domain, or null. */
export function parseReturnPath(secret: string, address: string): { emailId: string; senderDomain: string } | null {
  const match = /^bounces\+([a-z2-7]{42})@bounces\.([a-z0-9.-]+)$/i.exec(address.trim());
  if (!match) return null;
  const emailId = readVerpToken(secret, match[1]!);
  return emailId ? { emailId, senderDomain: match[2]!.toLowerCase() } : null;
}

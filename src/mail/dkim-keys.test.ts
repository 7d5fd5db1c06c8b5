import { createPublicKey, createSign, createVerify } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DkimKeyError,
  decryptPrivateKey,
  defaultDkimSelector,
  dkimRecordName,
  dkimTxtValue,
  encryptPrivateKey,
  generateDkimKeyPair,
  loadPrivateKey,
  quoteTxtStrings,
  splitTxtValue,
} from './dkim-keys.ts';
import type { DkimKeyPair } from './dkim-keys.ts';

let pair: DkimKeyPair;

beforeAll(async () => {
  pair = await generateDkimKeyPair();
});

describe('DKIM key pair', () => {
  it('is a 2048-bit RSA pair whose public half is the p= value', () => {
    const publicKey = createPublicKey({
      key: Buffer.from(pair.publicKeyBase64, 'base64'),
      format: 'der',
      type: 'spki',
    });
    expect(publicKey.asymmetricKeyType).toBe('rsa');
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const signature = createSign('RSA-SHA256').update('x').sign(pair.privateKeyPem);
    expect(createVerify('RSA-SHA256').update('x').verify(publicKey, signature)).toBe(true);
    expect(pair.publicKeyBase64).not.toMatch(/\s/);
  });

  it('builds the TXT record, and splits it into ≤255-character strings that join back', () => {
    const value = dkimTxtValue(pair.publicKeyBase64);
    expect(value.startsWith('v=DKIM1; k=rsa; p=MII')).toBe(true);
    expect(value.length).toBeGreaterThan(255);
    const chunks = splitTxtValue(value);
    expect(chunks.length).toBe(2);
    expect(chunks.every((c) => c.length <= 255)).toBe(true);
    expect(chunks.join('')).toBe(value);
    expect(quoteTxtStrings(['a"b', 'c'])).toBe('"a\\"b" "c"');
    expect(splitTxtValue('')).toEqual(['']);
  });

  it('names the record and the selector', () => {
    expect(dkimRecordName('herald202611', 'example.com')).toBe('herald202611._domainkey.example.com');
    expect(defaultDkimSelector(new Date('2026-03-15T00:00:00Z'))).toBe('herald202603');
  });
});

describe('private key encryption at rest', () => {
  const secret = 'a-long-random-app-secret-0123456789abcdef';

  it('round-trips, with a fresh salt and IV each time, and hides the PEM', () => {
    const a = encryptPrivateKey(pair.privateKeyPem, secret, 'dom_1');
    const b = encryptPrivateKey(pair.privateKeyPem, secret, 'dom_1');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.')).toBe(true);
    expect(a).not.toContain('PRIVATE KEY');
    expect(decryptPrivateKey(a, secret, 'dom_1')).toBe(pair.privateKeyPem);
    expect(loadPrivateKey(decryptPrivateKey(b, secret, 'dom_1')).asymmetricKeyType).toBe('rsa');
  });

  it('refuses a wrong secret, a different context, tampering and unknown formats', () => {
    const enc = encryptPrivateKey(pair.privateKeyPem, secret, 'dom_1');
    expect(() => decryptPrivateKey(enc, 'another-secret', 'dom_1')).toThrow(DkimKeyError);
    expect(() => decryptPrivateKey(enc, secret, 'dom_2')).toThrow(DkimKeyError);
    const parts = enc.split('.');
    const ct = Buffer.from(parts[4] ?? '', 'base64url');
    ct[0] = (ct[0] ?? 0) ^ 1;
    parts[4] = ct.toString('base64url');
    expect(() => decryptPrivateKey(parts.join('.'), secret, 'dom_1')).toThrow(DkimKeyError);
    expect(() => decryptPrivateKey('v2.a.b.c.d', secret)).toThrow(/format/);
    expect(() => decryptPrivateKey('garbage', secret)).toThrow(DkimKeyError);
    expect(() => encryptPrivateKey('x', '')).toThrow(DkimKeyError);
  });

  it('accepts a Buffer secret', () => {
    const key = Buffer.alloc(32, 7);
    expect(decryptPrivateKey(encryptPrivateKey('pem', key), key)).toBe('pem');
  });
});

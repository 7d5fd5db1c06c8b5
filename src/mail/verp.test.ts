import { describe, expect, it } from 'vitest';
import { createVerpToken, parseReturnPath, readVerpToken, returnPathFor } from './verp.ts';

const SECRET = 'verp-test-secret-0123456789abcdefghijklmnop';
const ID = '0192f0c4-7d5e-7a3b-9c1d-2e3f4a5b6c7d';

describe('VERP return paths', () => {
  it('round-trips an email id through a short, case-insensitive local part', () => {
    const address = returnPathFor(SECRET, ID, 'Example.COM');
    const local = address.slice(0, address.indexOf('@'));
    expect(local.length).toBeLessThanOrEqual(64);
    expect(address.endsWith('@bounces.example.com')).toBe(true);
    expect(parseReturnPath(SECRET, address)).toEqual({ emailId: ID, senderDomain: 'example.com' });
    expect(parseReturnPath(SECRET, address.toUpperCase())).toEqual({ emailId: ID, senderDomain: 'example.com' });
  });

  it('refuses forged, altered and foreign tokens', () => {
    const token = createVerpToken(SECRET, ID);
    expect(readVerpToken(SECRET, token)).toBe(ID);
    expect(readVerpToken('another-secret-0123456789abcdefghijklmnop', token)).toBeNull();
    const flipped = token[5] === 'a' ? 'b' : 'a';
    expect(readVerpToken(SECRET, token.slice(0, 5) + flipped + token.slice(6))).toBeNull();
    expect(readVerpToken(SECRET, token.slice(1))).toBeNull();
    expect(readVerpToken(SECRET, '!'.repeat(42))).toBeNull();
    expect(parseReturnPath(SECRET, `bounces@bounces.example.com`)).toBeNull();
    expect(parseReturnPath(SECRET, `someone+${token}@bounces.example.com`)).toBeNull();
  });
});

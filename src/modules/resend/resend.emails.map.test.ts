import { describe, expect, it } from 'vitest';
import { lastEventOf, parseSender } from './resend.emails.map.ts';

describe('parseSender', () => {
  it('reads Resend\'s "Name <address>" forms and bare addresses', () => {
    expect(parseSender('Acme <hello@acme.test>')).toEqual({ name: 'Acme', email: 'hello@acme.test' });
    expect(parseSender('"Acme, Inc." <hello@acme.test>')).toEqual({ name: 'Acme, Inc.', email: 'hello@acme.test' });
    expect(parseSender('<hello@acme.test>')).toBe('hello@acme.test');
    expect(parseSender(' hello@acme.test ')).toBe('hello@acme.test');
  });
});

describe('lastEventOf', () => {
  const at = '2026-01-01T00:00:00.000Z';
  it('follows the status, with opens and clicks on sent or delivered mail', () => {
    expect(lastEventOf({ status: 'SENDING', openedAt: null, clickedAt: null })).toBe('queued');
    expect(lastEventOf({ status: 'DEFERRED', openedAt: null, clickedAt: null })).toBe('delivery_delayed');
    expect(lastEventOf({ status: 'CANCELLED', openedAt: null, clickedAt: null })).toBe('canceled');
    expect(lastEventOf({ status: 'DELIVERED', openedAt: at, clickedAt: null })).toBe('opened');
    expect(lastEventOf({ status: 'SENT', openedAt: at, clickedAt: at })).toBe('clicked');
    expect(lastEventOf({ status: 'BOUNCED', openedAt: at, clickedAt: null })).toBe('bounced');
  });
});

import { describe, expect, it } from 'vitest';
import { asciiReply, smtpError } from './smtp-connections.ts';

describe('SMTP reply text', () => {
  it('spells typographic characters in ASCII, controls as spaces and anything else as ?', () => {
    expect(asciiReply('a secret key (sk_…) “quoted” – ok')).toBe('a secret key (sk_...) "quoted" - ok');
    expect(asciiReply('one\r\n250 injected')).toBe('one  250 injected');
    expect(asciiReply('Zoë 🙂')).toBe('Zo? ?');
  });

  it('makes every SMTP answer ASCII', () => {
    const error = smtpError(550, '5.7.1 The domain élan.test… is not verified');
    expect(error.message).toBe('5.7.1 The domain ?lan.test... is not verified');
    expect(error).toMatchObject({ responseCode: 550 });
  });
});

import { describe, expect, it } from 'vitest';
import { DeliveryError, isRecipientFailure, parseEnhancedCode } from './transport.ts';
import { findHeaderProblem, sanitizeFilename } from './headers.ts';

describe('DeliveryError', () => {
  it('only permanent failures can suppress', () => {
    expect(new DeliveryError('x', { kind: 'temporary', suppress: true }).suppress).toBe(false);
    expect(new DeliveryError('x', { kind: 'permanent', suppress: true }).suppress).toBe(true);
    expect(new DeliveryError('x', { kind: 'permanent' }).suppress).toBe(false);
    const cause = new Error('root');
    expect(new DeliveryError('x', { kind: 'temporary', cause }).cause).toBe(cause);
  });
});

describe('SMTP reply parsing', () => {
  it('extracts the enhanced status code', () => {
    expect(parseEnhancedCode('550 5.1.1 <a@b>: user unknown')).toBe('5.1.1');
    expect(parseEnhancedCode('550-5.7.515 Access denied')).toBe('5.7.515');
    expect(parseEnhancedCode('451 Try later')).toBeUndefined();
    expect(parseEnhancedCode(undefined)).toBeUndefined();
  });

  it('suppresses mailbox failures only', () => {
    expect(isRecipientFailure(550, '5.1.1')).toBe(true);
    expect(isRecipientFailure(550, '5.1.10')).toBe(true); // null MX
    expect(isRecipientFailure(550, '5.2.1')).toBe(true); // mailbox disabled
    expect(isRecipientFailure(552, '5.2.2')).toBe(false); // mailbox full
    expect(isRecipientFailure(550, '5.7.515')).toBe(false);
    expect(isRecipientFailure(550, '5.7.1')).toBe(false);
    expect(isRecipientFailure(553, '5.1.8')).toBe(false); // the sender's address
    expect(isRecipientFailure(554, '5.6.0')).toBe(false);
    expect(isRecipientFailure(450, '4.1.1')).toBe(false);
    expect(isRecipientFailure(550, undefined, 'RCPT TO')).toBe(true);
    expect(isRecipientFailure(554, undefined, 'RCPT TO')).toBe(false);
    expect(isRecipientFailure(550, undefined, 'DATA')).toBe(false);
  });
});

describe('custom headers and filenames', () => {
  it('findHeaderProblem', () => {
    expect(findHeaderProblem('X-Tag', 'ok ünïcode')).toBeNull();
    expect(findHeaderProblem('X-Tag', 'a\rb')).toMatch(/CR/);
    expect(findHeaderProblem('X Tag', 'a')).toMatch(/printable/);
    expect(findHeaderProblem('X-Tag:', 'a')).toMatch(/printable/);
    expect(findHeaderProblem('BCC', 'a')).toMatch(/overridden/);
    expect(findHeaderProblem('List-Unsubscribe-Post', 'a')).toMatch(/overridden/);
    expect(findHeaderProblem('Content-Foo', 'a')).toMatch(/overridden/);
  });

  it('sanitizeFilename', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(sanitizeFilename('a\r\nb".txt')).toBe('ab.txt');
    expect(sanitizeFilename('...', 2)).toBe('attachment-3');
    expect(sanitizeFilename('.htaccess')).toBe('htaccess');
    const long = sanitizeFilename('x'.repeat(300) + '.docx');
    expect(long.length).toBe(150);
    expect(long.endsWith('.docx')).toBe(true);
  });
});

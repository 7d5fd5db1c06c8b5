import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

function capture(format: 'pretty' | 'json' | undefined, tty: boolean): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  createLogger({ level: 'info', format, tty, destination: out }).info({ emailId: 'e1' }, 'email sent');
  return text;
}

describe('createLogger', () => {
  it('writes readable lines on a terminal and when asked, JSON otherwise and when asked', () => {
    for (const text of [capture(undefined, true), capture('pretty', false)]) {
      expect(text).toMatch(/INFO.*email sent/);
      expect(text).toContain('emailId: "e1"');
      expect(text).not.toContain('{"level"');
    }
    for (const text of [capture(undefined, false), capture('json', true)]) {
      expect(JSON.parse(text)).toMatchObject({ level: 30, msg: 'email sent', emailId: 'e1' });
    }
  });
});

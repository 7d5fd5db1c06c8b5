import { describe, expect, it } from 'vitest';
import { keepSignatures } from './authenticate.ts';

const signature = (i: number) => `DKIM-Signature: v=1; d=x.test; s=s${i};\r\n\tbh=abc; b=def${i}\r\n`;

describe('keepSignatures', () => {
  it(
    'drops the DKIM-Signature fields after the first `max`, folded lines included, ' +
      'and leaves the rest byte for byte',
    () => {
      const head =
        `${[0, 1, 2].map(signature).join('')}From: a@x.test\r\nSubject: ` +
        `dkim-signature: not a field\r\n${signature(3)}`;
      const raw = Buffer.from(`${head}\r\nbody\r\nDKIM-Signature: in the body stays\r\n`);
      const kept = keepSignatures(raw, 2).toString();
      expect(kept).toBe(
        `${signature(0)}${signature(1)}From: a@x.test\r\nSubject: dkim-signature: ` +
          `not a field\r\n\r\nbody\r\nDKIM-Signature: in the body stays\r\n`,
      );
    },
  );

  it('answers the same buffer when nothing is dropped, and handles a message without a body', () => {
    const raw = Buffer.from(`${signature(0)}From: a@x.test\r\n`);
    expect(keepSignatures(raw, 5)).toBe(raw);
    expect(keepSignatures(raw, 0).toString()).toBe('From: a@x.test\r\n');
  });
});

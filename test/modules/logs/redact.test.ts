// What the request log keeps of a body: valid JSON of at most 10 KB, with credentials and attachment contents
// replaced at any depth.
import { describe, expect, it } from 'vitest';
import { BODY_LIMIT, CUT_MARK, keepBody } from '../../../src/modules/logs/logs.redact.ts';

describe('keepBody', () => {
  it('redacts credentials at any depth, and attachment contents by their size', () => {
    const kept = keepBody({
      email: 'a@example.com',
      password: 'p',
      nested: [{ apiKey: 'k', secretKey: 'sk', keyId: 'kept', deep: { Authorization: 'Bearer x', token: 't' } }],
      newPassword: 'n',
      attachments: [{ filename: 'a.txt', content: 'aGVsbG8=' }],
      content: 'not an attachment',
      code: '123456',
    });
    expect(JSON.parse(kept.json!)).toEqual({
      email: 'a@example.com',
      password: '[redacted]',
      nested: [
        {
          apiKey: '[redacted]',
          secretKey: '[redacted]',
          keyId: 'kept',
          deep: { Authorization: '[redacted]', token: '[redacted]' },
        },
      ],
      newPassword: '[redacted]',
      attachments: [{ filename: 'a.txt', content: '[attachment: 5 bytes]' }],
      content: 'not an attachment',
      code: '123456',
    });
    expect(kept.cut).toBe(false);
    expect(JSON.parse(keepBody({ code: '123456' }, { twoFactor: true }).json!)).toEqual({ code: '[redacted]' });
  });

  it('cuts long strings and long bodies, keeping valid JSON within the limit', () => {
    const long = keepBody({ html: 'x'.repeat(5_000_000), to: 'a@example.com' });
    expect(long.cut).toBe(true);
    const parsed = JSON.parse(long.json!) as { html: string; to: string };
    expect(parsed.html.endsWith(CUT_MARK)).toBe(true);
    expect(parsed.to).toBe('a@example.com');

    for (const body of [
      Array.from({ length: 50_000 }, (_, i) => ({ i, s: `"quoted" \\ ${'é'.repeat(i % 50)}` })),
      {
        a: { b: [{ c: 'y'.repeat(3000) }, { c: 'y'.repeat(3000) }, { c: 'y'.repeat(3000) }, { c: 'y'.repeat(3000) }] },
      },
      Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`field${i}`, i])),
    ]) {
      const kept = keepBody(body);
      expect(kept.cut).toBe(true);
      expect(kept.json!.length).toBeLessThanOrEqual(BODY_LIMIT);
      expect(() => JSON.parse(kept.json!) as unknown).not.toThrow();
    }
    expect(keepBody(undefined)).toEqual({ json: null, cut: false });
  });
});

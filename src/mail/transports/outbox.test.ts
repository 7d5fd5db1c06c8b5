import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../transport.ts';
import { createTransport } from './index.ts';
import { createOutboxTransport } from './outbox.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'herald-outbox-'));
});

afterEach(async () => {
  await chmod(dir, 0o700).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const raw = Buffer.from('From: a@example.com\r\nTo: b@example.org\r\nSubject: hi\r\n\r\nhello\r\n');

describe('outbox transport', () => {
  it('writes <dir>/<emailId>.eml (creating the directory) and leaves no temp files', async () => {
    const outbox = path.join(dir, 'nested', 'outbox');
    const t = createOutboxTransport({ dir: outbox });
    const result = await t.send({ from: 'a@example.com', to: 'b@example.org', raw, emailId: 'em_01HZX-abc' });
    expect(result.response).toBe('outbox/em_01HZX-abc.eml'); // shown by the API: no server path in it
    expect((await readFile(path.join(outbox, 'em_01HZX-abc.eml'))).equals(raw)).toBe(true);
    expect(await readdir(outbox)).toEqual(['em_01HZX-abc.eml']);
    await t.close();
  });

  it('a retry overwrites the same file atomically', async () => {
    const t = createOutboxTransport({ dir });
    await writeFile(path.join(dir, 'e1.eml'), 'old');
    await t.send({ from: 'a@example.com', to: 'b@example.org', raw, emailId: 'e1' });
    expect((await readFile(path.join(dir, 'e1.eml'))).equals(raw)).toBe(true);
  });

  it('refuses ids that could escape the directory', async () => {
    const t = createOutboxTransport({ dir });
    for (const emailId of ['../evil', 'a/b', '', '.hidden', 'x'.repeat(200)]) {
      const err = await t.send({ from: 'a@x.y', to: 'b@x.y', raw, emailId }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, emailId).toBeInstanceOf(DeliveryError);
      expect((err as DeliveryError).kind).toBe('permanent');
    }
    expect(await readdir(dir)).toEqual([]);
  });

  // Root ignores directory permissions, so this case only runs as an ordinary user.
  it.skipIf(process.getuid?.() === 0)(
    'a write failure (read-only dir) is temporary (the email is retried, not lost)',
    async () => {
      await chmod(dir, 0o500);
      const err = await createOutboxTransport({ dir })
        .send({ from: 'a@x.y', to: 'b@x.y', raw, emailId: 'e2' })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect((err as DeliveryError).kind).toBe('temporary');
    },
  );

  it('a write failure (path is a file) is temporary', async () => {
    const file = path.join(dir, 'not-a-dir');
    await writeFile(file, 'x');
    const err = await createOutboxTransport({ dir: file })
      .send({ from: 'a@x.y', to: 'b@x.y', raw, emailId: 'e3' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(DeliveryError);
    expect((err as DeliveryError).kind).toBe('temporary');
    expect((err as DeliveryError).message).toMatch(/^outbox write failed: E[A-Z]+/);
    expect((err as DeliveryError).message).not.toContain(dir);
  });
});

describe('createTransport', () => {
  it('builds each kind and checks its required setting', async () => {
    expect(createTransport({ kind: 'outbox', outboxDir: dir }).name).toBe('outbox');
    const smtp = createTransport({ kind: 'smtp', smtpUrl: 'smtp://127.0.0.1:2525' });
    expect(smtp.name).toBe('smtp');
    await smtp.close();
    const ses = createTransport({ kind: 'ses', ses: { region: 'us-east-1' } });
    expect(ses.name).toBe('ses');
    await ses.close();
    expect(() => createTransport({ kind: 'outbox' })).toThrow(/outboxDir/);
    expect(() => createTransport({ kind: 'smtp' })).toThrow(/smtpUrl/);
    expect(() => createTransport({ kind: 'smtp', smtpUrl: 'http://x' })).toThrow(/smtp/);
    expect(() => createTransport({ kind: 'ses' })).toThrow(/region/);
    expect(() => createTransport({ kind: 'pigeon' as 'outbox' })).toThrow(/unknown/);
  });
});

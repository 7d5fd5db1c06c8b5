/**
 * SEND_RATE_PER_SECOND is a smooth limit per project across every worker: two workers share one project's
 * mail, and no one-second window holds more handoffs than the rate. Handoffs are timed where the transport
 * takes the message: the outbox (shared by both workers) writes each file when it is handed over.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

describe('per-project send pacing across two workers', () => {
  let m: MailFixture;
  let second: TestApp;
  const outboxRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-pacing-'));
  const env = { SEND_RATE_PER_SECOND: '3', MAIL_TRANSPORT: 'outbox', DATA_DIR: outboxRoot };

  beforeAll(async () => {
    m = await startMailFixture({ env });
    const shared =
      m.t.testDb.kind === 'postgres' ? { database: m.t.testDb } : { database: m.t.testDb, handle: m.t.ctx.database };
    second = await createTestApp({ ...shared, worker: true, env: { ...env, DNS_SERVERS: m.dns.address } });
  });
  afterAll(async () => {
    await second.close();
    await m.close();
    fs.rmSync(outboxRoot, { recursive: true, force: true });
  });

  it(
    'hands at most SEND_RATE_PER_SECOND emails over in any one-second window, ' + 'whichever worker sends them',
    async () => {
      const sender = await m.verifiedDomain('example.test');
      const to = Array.from({ length: 10 }, (_, i) => `r${i}@dest.test`);
      const res = await m.t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: sender.auth,
        payload: { to, from: 'hello@example.test', subject: 's', body: 'b' },
      });
      const ids = (res.json().data.emails as { email: string }[]).map((e) => e.email);
      await Promise.all(ids.map((id) => m.waitForStatus(sender.auth, id, ['SENT'])));
      const times = ids
        .map((id) => fs.statSync(path.join(outboxRoot, 'outbox', `${id}.eml`)).mtimeMs)
        .sort((a, b) => a - b);
      // A window starting at any handoff holds at most 3: the 4th after it comes a second or more later. The file's
      // time is when its write ended, which on a busy machine can lag its handoff by a few hundred milliseconds, so
      // the bound read from the files is 750 ms. (Unpaced, all ten are written within a few tens of milliseconds.)
      for (let i = 0; i + 3 < times.length; i++) expect(times[i + 3]! - times[i]!).toBeGreaterThanOrEqual(750);
    },
  );
});

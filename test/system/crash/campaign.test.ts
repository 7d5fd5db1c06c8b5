// kill -9 the process that sends a campaign, twice (early in the fan-out, then mid-delivery),
// restart it each time, and check what the SMTP sink received. On PostgreSQL the API is this test process
// and a real `herald worker` child does the sending; on PGlite (one process per data folder) a `herald serve`
// child does both, and its data folder is opened here between kill and restart to read what it had done.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../src/db/client.ts';
import { crashWorld } from '../../support/crash.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';
import { messageIdFor } from '../../../src/mail/compose.ts';

const RECIPIENTS = 3000;
const SENDER = 'news@crash.test';

interface Snapshot {
  /** Emails between "handed to SMTP" and "recorded as sent": the only ones a restart may send twice. */
  sending: number;
  /** Message-IDs of emails already recorded as sent: a restart must never send these again. */
  sent: string[];
}

async function snapshot(db: Executor, campaignId: string): Promise<Snapshot> {
  const result = await db.execute(
    sql`SELECT id, status, from_email, message_id FROM emails WHERE source_id = ${campaignId}::uuid`,
  );
  const rows = (
    result as unknown as { rows: { id: string; status: string; from_email: string; message_id: string | null }[] }
  ).rows;
  return {
    sending: rows.filter((r) => r.status === 'SENDING').length,
    sent: rows
      .filter((r) => r.status === 'SENT')
      .map((r) => messageIdFor({ id: r.id, fromEmail: r.from_email, messageId: r.message_id })),
  };
}

describe(`kill -9 mid-campaign (${testDatabaseKind})`, () => {
  const world = crashWorld(
    {
      PUBLIC_URL: 'https://mail.crash.test',
      SEND_RATE_PER_SECOND: '0',
      SEND_RETRY_DELAY_SECONDS: '1',
      SEND_RETRY_DELAY_MAX_SECONDS: '2',
    },
    { split: true },
  );
  /** kill -9, then what the database says the dead process had done. */
  const crash = async (campaignId: string) => {
    await world.h.kill('SIGKILL');
    return world.h.query((db) => snapshot(db, campaignId));
  };

  it(
    'resumes after each kill: everyone mailed, duplicates only from the in-flight ' +
      'window, one Message-ID per recipient, SENT',
    { timeout: 600_000 },
    async () => {
      const { h, sink, dns } = world;
      await h.start();
      const auth = await h.projectWithDomain(dns, 'crash.test');

      const rows = Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `user${i}@dest.test`, data: { n: i } }));
      const upload = await h.api('POST', '/contacts/import', rows, auth);
      expect(upload.status, JSON.stringify(upload.body)).toBe(202);
      await until(
        async () =>
          (await h.api('GET', `/contacts/import/${upload.body.data.id}`, undefined, auth)).body.data.status ===
          'completed',
        'the import',
        120_000,
        250,
      );

      const created = await h.api(
        'POST',
        '/campaigns',
        {
          name: 'crash',
          subject: 'Hello {{n}}',
          body: '<p>Number {{n}}</p><a href="{{unsubscribeUrl}}">unsubscribe</a>',
          from: SENDER,
          audienceType: 'ALL',
        },
        auth,
      );
      const id = created.body.data.id as string;
      expect((await h.api('POST', `/campaigns/${id}/send`, undefined, auth)).status).toBe(202);

      // Kill 1: as soon as the fan-out has committed its first batch.
      await until(
        async () => (await h.api('GET', `/emails?sourceId=${id}&limit=1`, undefined, auth)).body.data.total > 0,
        'the first batch',
        60_000,
        20,
      );
      const first = await crash(id);
      await h.start();
      // Kill 2: mid-delivery. The fan-out job the first kill interrupted is taken up again by the queue's maintenance
      // once its heartbeat is stale (30 s, then maintenance runs once a minute among all processes: 1–2.5 min
      // measured), or by the campaign sweep once the campaign is idle (2 min, then within a minute): allow for the
      // later of the two.
      await until(async () => sink.messages.length >= RECIPIENTS / 3 + 7, 'a third of the mail', 300_000, 10);
      const second = await crash(id);
      await h.start();

      await until(
        async () => (await h.api('GET', `/campaigns/${id}`, undefined, auth)).body.data.status === 'SENT',
        'SENT',
        300_000,
        500,
      );

      const received = sink.messages
        .filter((msg) => msg.from === SENDER)
        .map((msg) => ({
          to: msg.to[0]!,
          messageId: /^Message-ID:\s*(<[^>]+>)/im.exec(msg.raw.toString('latin1'))![1]!,
        }));
      const perRecipient = new Map<string, number>();
      const recipientsOfId = new Map<string, Set<string>>();
      for (const msg of received) {
        perRecipient.set(msg.to, (perRecipient.get(msg.to) ?? 0) + 1);
        recipientsOfId.set(msg.messageId, (recipientsOfId.get(msg.messageId) ?? new Set()).add(msg.to));
      }
      const duplicates = received.length - perRecipient.size;
      console.log(
        `crash test (${testDatabaseKind}): ${received.length} messages ` +
          `for ${perRecipient.size} recipients, ${duplicates} duplicates; ` +
          `in flight at the kills: ${first.sending} + ${second.sending}; ` +
          `recorded sent before the kills: ${first.sent.length}, ${second.sent.length}`,
      );
      if (perRecipient.size !== RECIPIENTS) {
        // Which recipients got nothing, and what the database says of their emails: the failure names the cause.
        const missing = rows.map((r) => r.email).filter((email) => !perRecipient.has(email));
        await h.kill('SIGTERM'); // on PGlite the database can be read only once the child let go of it
        const records = await h.query(async (db) => {
          const result = await db.execute(
            sql`SELECT to_email, status, attempts, last_error, message_id, updated_at FROM emails
                WHERE source_id = ${id}::uuid AND to_email IN ${missing}`,
          );
          return (result as unknown as { rows: unknown[] }).rows;
        });
        expect.fail(`no message for ${missing.join(', ')}: ${JSON.stringify(records)}`);
      }
      expect(duplicates).toBeLessThanOrEqual(first.sending + second.sending);
      expect([...recipientsOfId.values()].every((to) => to.size === 1)).toBe(true);
      expect(recipientsOfId.size).toBe(RECIPIENTS);
      const sentBefore = new Set(second.sent);
      expect(received.filter((msg) => sentBefore.has(msg.messageId)).length).toBe(sentBefore.size);
      const stats = (await h.api('GET', `/campaigns/${id}/stats`, undefined, auth)).body.data;
      expect(stats).toMatchObject({ recipients: RECIPIENTS, sent: RECIPIENTS, failed: 0 });
    },
  );
});

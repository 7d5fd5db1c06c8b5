// The SMTP submission relay across kill -9: a `herald serve` child takes a stream of messages from several SMTP
// connections, each message with its own Idempotency-Key; the child is killed mid-stream (and once more right after
// a commit, before its 250), restarted on the same database, and the client re-submits every message whose 250 it
// did not get, with the same key. Every message must then be queued once, stored whole, and delivered once per
// recipient; a message committed before the kill must be answered from its key with the ids first committed.
// Delivery is held back (the sink answers 451) until the relay's crashes are over: a kill during delivery may send
// an in-flight message twice, the delivery engine's window that campaign.test.ts covers, not the relay's.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../../src/db/client.ts';
import { messageIdFor } from '../../../src/mail/compose.ts';
import { relayTransport } from '../../support/smtp-client.ts';
import { freePort } from '../../support/child.ts';
import { crashWorld } from '../../support/crash.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';

const MESSAGES = 120;
const CONNECTIONS = 6;
const SENDER = 'app@relay-crash.test';
/** Each message's two recipients, unique to it, so the sink's count per address is its count per message. */
const recipientsOf = (i: number) => [`m${i}-a@dest.test`, `m${i}-b@dest.test`];
const indexOf = (address: string) => Number(/^m(\d+)-[ab]@/.exec(address)![1]);
/** The last line of message i's body: a stored MIME that ends with it was stored whole. */
const lastLine = (i: number) => `end of message ${i}`;

/** Which messages were answered 250, with the email ids of the answer; the others failed (connection lost). */
interface Outcome {
  acked: Map<number, string[]>;
  failed: number[];
}

/** Submits `indexes` over CONNECTIONS connections at once; `onAck` runs after each 250. */
async function submit(
  port: number,
  password: string,
  indexes: number[],
  onAck: (acked: number) => void = () => {},
): Promise<Outcome> {
  const acked = new Map<number, string[]>();
  const failed: number[] = [];
  const queue = [...indexes];
  const worker = async () => {
    const transport = relayTransport(port, password);
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      const info = await transport
        .sendMail({
          from: SENDER,
          to: recipientsOf(i),
          subject: `Crash ${i}`,
          headers: { 'Idempotency-Key': `crash-message-${i}`, 'X-Seq': String(i) },
          text: `${'Lorem ipsum dolor sit amet. '.repeat(800)}\n${lastLine(i)}\n`,
        })
        .catch(() => null);
      const ids = info ? /^250 2\.0\.0 Ok: queued as (\S+)$/.exec(info.response)?.[1]?.split(',') : undefined;
      if (ids) {
        acked.set(i, ids);
        onAck(acked.size);
      } else failed.push(i);
    }
    transport.close();
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return { acked, failed };
}

interface StoredEmail {
  id: string;
  to: string;
  mime: Buffer | null;
}

/** Every SMTP email of the database with its stored MIME (null when the row points at none). */
async function storedEmails(db: Executor): Promise<StoredEmail[]> {
  const result = await db.execute(
    sql`SELECT e.id, e.to_email, m.content FROM emails e LEFT JOIN email_mime m ON m.id = e.mime_id WHERE
      e.source_type = 'SMTP'`,
  );
  const rows = (result as unknown as { rows: { id: string; to_email: string; content: Buffer | Uint8Array | null }[] })
    .rows;
  return rows.map((r) => ({ id: r.id, to: r.to_email, mime: r.content === null ? null : Buffer.from(r.content) }));
}

/** Email ids per message, as committed. */
function committedIds(emails: StoredEmail[]): Map<number, string[]> {
  const byMessage = new Map<number, string[]>();
  for (const e of emails) byMessage.set(indexOf(e.to), [...(byMessage.get(indexOf(e.to)) ?? []), e.id]);
  return byMessage;
}

describe(`SMTP relay across kill -9 (${testDatabaseKind})`, () => {
  let relayPort = 0;
  const world = crashWorld(async () => {
    relayPort = await freePort();
    return {
      SUBMISSION_SMTP_PORT: String(relayPort),
      RATE_LIMIT_PER_MINUTE: '100000',
      SEND_RATE_PER_SECOND: '0',
      SEND_RETRY_LIMIT: '50',
      SEND_RETRY_DELAY_SECONDS: '2',
      SEND_RETRY_DELAY_MAX_SECONDS: '4',
    };
  });

  it(
    'queues every message once, stores it whole, answers retries from their keys and delivers once per recipient',
    { timeout: 300_000 },
    async () => {
      const { h, sink, dns } = world;
      const everyone = Array.from({ length: MESSAGES }, (_, i) => i);
      for (const i of everyone)
        for (const address of recipientsOf(i)) sink.failRecipient(address, { code: 451, message: '4.3.0 Not yet' });
      await h.start();
      const auth = await h.projectWithDomain(dns, 'relay-crash.test');
      const password = auth.slice('Bearer '.length);

      // Kill 1: mid-stream, once a third of the messages have their 250.
      let killed: Promise<void> | null = null;
      const first = await submit(relayPort, password, everyone, (acked) => {
        if (acked >= MESSAGES / 3 && !killed) killed = h.kill('SIGKILL');
      });
      await killed;
      expect(first.failed.length, 'messages cut off by the kill').toBeGreaterThan(0);
      const afterKill = committedIds(await h.query(storedEmails));
      // Nothing acknowledged is lost: each 250's ids are exactly what the database holds for that message.
      for (const [i, ids] of first.acked) expect(afterKill.get(i)?.sort(), `message ${i}`).toEqual([...ids].sort());

      // Kill 2: the child dies right after committing the next message, before its 250.
      await h.start({ HERALD_TEST_FAULT: 'kill-after-relay-commit' });
      const [victim, ...rest] = first.failed.filter((i) => !afterKill.has(i));
      expect(victim, 'a message the first kill left unqueued').toBeDefined();
      const cut = await submit(relayPort, password, [victim!]);
      expect(cut.failed).toEqual([victim]);
      await h.kill('SIGKILL');
      const committed = committedIds(await h.query(storedEmails));
      expect(committed.get(victim!), 'the message committed before the kill').toHaveLength(2);

      // The client re-submits every message without a 250, with the same keys; delivery may now go through.
      await h.start();
      const retried = await submit(relayPort, password, first.failed);
      expect(retried.failed).toEqual([]);
      // Those committed before a kill are answered with the ids first committed: nothing is queued twice.
      const replayed = first.failed.filter((i) => committed.has(i));
      expect(replayed).toContain(victim);
      for (const i of replayed) expect(retried.acked.get(i)?.sort(), `message ${i}`).toEqual(committed.get(i)?.sort());
      expect(rest.every((i) => !committed.has(i))).toBe(true);
      sink.clearFailures();

      const acked = new Map([...first.acked, ...retried.acked]);
      expect([...acked.keys()].sort((a, b) => a - b)).toEqual(everyone);
      await sink.waitForMessages(MESSAGES * 2, 120_000);
      await until(
        async () =>
          (await h.api('GET', '/emails?status=SENT&limit=1', undefined, auth)).body.data.total === MESSAGES * 2,
        'every email recorded SENT',
        60_000,
      );

      // Once per recipient, each with the Message-ID of the email the relay's answer named.
      for (const i of everyone)
        for (const address of recipientsOf(i)) expect(sink.perRecipient.get(address), address).toBe(1);
      expect(sink.messages).toHaveLength(MESSAGES * 2);
      const received = sink.messages.map((m) => ({
        to: m.to[0]!,
        messageId: /^Message-ID:\s*(\S+)/im.exec(m.raw.toString('latin1'))?.[1],
      }));
      expect(new Set(received.map((r) => r.messageId)).size).toBe(MESSAGES * 2);
      const expected = [...acked.values()].flat().map((id) => messageIdFor({ id, fromEmail: SENDER }));
      expect(received.map((r) => r.messageId).sort()).toEqual(expected.sort());

      // Every SMTP email points at the whole message it was submitted as: none half-stored, none stored twice.
      await h.kill('SIGTERM');
      const emails = await h.query(storedEmails);
      expect(emails).toHaveLength(MESSAGES * 2);
      for (const e of emails) {
        const i = indexOf(e.to);
        expect(e.mime, `the MIME of ${e.to}`).not.toBeNull();
        const mime = e.mime!.toString('latin1');
        expect(mime).toMatch(new RegExp(`^X-Seq: ${i}\\r$`, 'm'));
        expect(mime.trimEnd().endsWith(lastLine(i)), `the MIME of ${e.to} ends with its last line`).toBe(true);
      }
      const mimeRows = await h.query(
        async (db) =>
          (await db.execute(sql`SELECT count(*)::int AS n FROM email_mime`)) as unknown as { rows: { n: number }[] },
      );
      expect(mimeRows.rows[0]!.n).toBe(MESSAGES);
    },
  );
});

// /v1/send with an Idempotency-Key, the process killed (SIGKILL) after the commit and before
// the reply. The client retries the same request against the restarted process: it gets the stored answer
// (same email ids), and the recipient gets the message exactly once.
import { describe, expect, it } from 'vitest';
import { crashWorld } from '../../support/crash.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';

describe(`idempotent /v1/send across a kill between commit and reply (${testDatabaseKind})`, () => {
  const world = crashWorld({ SEND_RATE_PER_SECOND: '0' });

  it('replays the committed answer and sends once', { timeout: 120_000 }, async () => {
    const { h, sink, dns } = world;
    await h.start();
    const auth = await h.projectWithDomain(dns, 'crash.test');
    await h.kill('SIGTERM');

    // This process dies right after committing the send, before answering.
    await h.start({ HERALD_TEST_FAULT: 'kill-after-send-commit' });
    const request = {
      to: ['one@dest.test', 'two@dest.test'],
      from: 'hi@crash.test',
      subject: 'Once',
      body: '<p>once</p>',
    };
    const key = { 'idempotency-key': 'order-42' };
    await expect(h.api('POST', '/v1/send', request, auth, key)).rejects.toThrow();
    await h.kill('SIGKILL');

    await h.start();
    const retried = await h.api('POST', '/v1/send', request, auth, key);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const ids = (retried.body as { data: { emails: { email: string }[] } }).data.emails.map((e) => e.email);
    expect(ids).toHaveLength(2);
    const listed = (await h.api('GET', '/emails?limit=100', undefined, auth)).body.data;
    expect(listed.items.map((e: { id: string }) => e.id).sort()).toEqual([...ids].sort());
    await sink.waitForMessages(2, 30_000);
    // Nothing more arrives: the idempotent retry queued nothing again (its emails are both settled).
    await until(
      async () => (await h.api('GET', '/emails?status=SENT', undefined, auth)).body.data.total === 2,
      'both emails recorded SENT',
    );
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual(['one@dest.test', 'two@dest.test']);
  });
});

// A scheduled email is a row of the delivery queue, not a timer: the process that took it is killed before its time,
// and the one started after its time sends it (once).
import { describe, expect, it } from 'vitest';
import { crashWorld } from '../../support/crash.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';

describe(`a scheduled email across a restart (${testDatabaseKind})`, () => {
  const world = crashWorld({ SEND_RATE_PER_SECOND: '0' });

  it('is sent after its time by the restarted process', { timeout: 120_000 }, async () => {
    const { h, sink, dns } = world;
    await h.start();
    const auth = await h.projectWithDomain(dns, 'later.test');
    const scheduledAt = new Date(Date.now() + 4_000).toISOString();
    const sent = await h.api(
      'POST',
      '/v1/send',
      { to: 'later@dest.test', from: 'hi@later.test', subject: 'Later', body: '<p>later</p>', scheduledAt },
      auth,
    );
    expect(sent.status).toBe(200);
    const id = (sent.body as { data: { emails: { email: string; status: string }[] } }).data.emails[0]!;
    expect(id.status).toBe('SCHEDULED');
    await h.kill('SIGKILL');

    await until(() => Date.now() > Date.parse(scheduledAt), 'the scheduled time passes while no process runs', 20_000);
    expect(sink.messages).toHaveLength(0);
    await h.start();
    await sink.waitForMessages(1, 30_000);
    const email = await until(async () => {
      const body = (await h.api('GET', `/emails/${id.email}`, undefined, auth)).body.data;
      return body.status === 'SENT' ? body : null;
    }, 'the email recorded SENT');
    expect(Date.parse(email.sentAt)).toBeGreaterThanOrEqual(Date.parse(scheduledAt));
    expect(sink.messages.map((m) => m.to)).toEqual([['later@dest.test']]);
  });
});

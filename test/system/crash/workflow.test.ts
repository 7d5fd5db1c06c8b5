// A worker killed with SIGKILL while executions sit in a DELAY: after a restart they still complete, and every
// step runs once (one email per SEND_EMAIL step, one history entry per step). On PostgreSQL the API is this
// test process and a real `herald worker` child runs the engine; on PGlite a `herald serve` child does both.
import { describe, expect, it } from 'vitest';
import { crashWorld } from '../../support/crash.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';

const CONTACTS = 5;
const SENDER = 'hello@crash-flows.test';

describe(`kill -9 during a DELAY (${testDatabaseKind})`, () => {
  const world = crashWorld(
    {
      PUBLIC_URL: 'https://mail.crash.test',
      SEND_RATE_PER_SECOND: '0',
      SEND_RETRY_DELAY_SECONDS: '1',
      SEND_RETRY_DELAY_MAX_SECONDS: '2',
    },
    { split: true },
  );

  it('completes every execution after the restart, each step once', { timeout: 330_000 }, async () => {
    const { h, sink, dns } = world;
    await h.start();
    const auth = await h.projectWithDomain(dns, 'crash-flows.test');
    const template = await h.api(
      'POST',
      '/templates',
      { name: 't', type: 'TRANSACTIONAL', subject: 'Step {{ step }}', body: '<p>{{ step }}</p>', from: SENDER },
      auth,
    );
    const workflow = await h.api(
      'POST',
      '/workflows',
      {
        name: 'Crash',
        enabled: true,
        trigger: { type: 'EVENT', event: 'joined' },
        steps: [
          { id: 'first', type: 'SEND_EMAIL', templateId: template.body.data.id, data: { step: 1 } },
          { id: 'pause', type: 'DELAY', duration: '4s' },
          { id: 'second', type: 'SEND_EMAIL', templateId: template.body.data.id, data: { step: 2 } },
        ],
      },
      auth,
    );
    const id = workflow.body.data.id as string;
    for (let i = 0; i < CONTACTS; i++)
      expect((await h.api('POST', '/v1/track', { email: `c${i}@dest.test`, event: 'joined' }, auth)).status).toBe(200);

    // Every execution is in its DELAY and every first email has reached the sink: kill the worker now.
    await until(
      async () => {
        const list = await h.api('GET', `/workflows/${id}/executions?status=WAITING`, undefined, auth);
        return list.body.data.total === CONTACTS && sink.messages.length >= CONTACTS ? true : undefined;
      },
      'all executions waiting',
      // A loaded machine (the suites and a benchmark at once) has taken over a minute here.
      120_000,
    );
    await h.kill('SIGKILL');
    await h.start();

    const done = await until(
      async () => {
        const list = await h.api('GET', `/workflows/${id}/executions?status=COMPLETED&limit=100`, undefined, auth);
        return list.body.data.total === CONTACTS ? list.body.data.items : undefined;
      },
      'all executions completed',
      120_000,
    );
    for (const exec of done as { history: { stepId: string; status: string }[] }[]) {
      expect(exec.history.map((e) => [e.stepId, e.status])).toEqual([
        ['first', 'COMPLETED'],
        ['pause', 'COMPLETED'],
        ['second', 'COMPLETED'],
      ]);
    }
    await until(async () => (sink.messages.length >= 2 * CONTACTS ? true : undefined), 'the second emails', 60_000);
    const subjects = sink.messages
      .map((m) => `${m.to[0]} ${/^Subject: (.*)$/m.exec(m.raw.toString())?.[1]?.trim()}`)
      .sort();
    const expected = Array.from({ length: CONTACTS }, (_, i) => [`c${i}@dest.test Step 1`, `c${i}@dest.test Step 2`])
      .flat()
      .sort();
    expect(subjects).toEqual(expected);
    const emails = await h.api('GET', `/emails?sourceId=${id}&limit=100`, undefined, auth);
    expect(emails.body.data.total).toBe(2 * CONTACTS);
  });
});

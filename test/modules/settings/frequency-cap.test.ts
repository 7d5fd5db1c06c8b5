// The frequency cap: a contact sent `max` marketing emails (campaigns and marketing workflow steps) in the last `per`
// gets no more (SUPPRESSED, reason FREQUENCY_CAP) until one ages out; transactional mail and campaigns that ignore the
// cap still go; the cap holds for campaigns sent at the same time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { expectError } from '../../support/envelope.ts';
import { until } from '../../support/until.ts';
import { SENDER, startWorkflowFixture, type WorkflowFixture } from '../workflows/fixture.ts';

describe('frequency cap', () => {
  let f: WorkflowFixture;
  const cap = (frequencyCap: unknown) => f.api('PATCH', '/settings', { frequencyCap });
  const createCampaign = async (name: string, domain: string, extra: Record<string, unknown> = {}) => {
    const created = await f.api('POST', '/campaigns', {
      name,
      audienceType: 'FILTERED',
      audienceFilter: { field: 'email', operator: 'endsWith', value: domain },
      subject: name,
      body: '<p>News <a href="{{unsubscribeUrl}}">unsubscribe</a></p>',
      from: SENDER,
      ...extra,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id as string;
  };
  const finish = async (id: string) => {
    await until(async () => (await f.api('GET', `/campaigns/${id}`)).body.data.status === 'SENT', `${id} SENT`);
    return (await f.api('GET', `/campaigns/${id}/stats`)).body.data;
  };
  const sendCampaign = async (name: string, domain: string, extra: Record<string, unknown> = {}) => {
    const id = await createCampaign(name, domain, extra);
    expect((await f.api('POST', `/campaigns/${id}/send`)).status).toBe(202);
    return finish(id);
  };
  const received = (subject: string) =>
    f.m.sink.messages
      .filter((msg) => msg.raw.toString().includes(`Subject: ${subject}`))
      .map((msg) => msg.to[0])
      .sort();
  const contact = (email: string) => f.api('POST', '/contacts', { email });

  beforeAll(async () => {
    f = await startWorkflowFixture();
  });
  afterAll(() => f.close());

  it('is set and cleared in /settings; refuses a cap of 0 and windows that are not 1 to 90 days (422)', async () => {
    expect((await f.api('GET', '/settings')).body.data.frequencyCap).toBeNull();
    for (const bad of [
      { max: 0, per: '7d' },
      { max: -1, per: '7d' },
      { max: 1.5, per: '7d' },
      { max: 2, per: '0d' },
      { max: 2, per: '91d' },
      { max: 2, per: '12h' },
      { max: 2, per: '1w' },
      { max: 2 },
      { max: 2, per: '7d', extra: true },
    ]) {
      const res = await f.m.t.app.inject({
        method: 'PATCH',
        url: '/settings',
        headers: f.auth,
        payload: { frequencyCap: bad },
      });
      expectError(res, 422, 'VALIDATION_ERROR');
    }
    const set = await cap({ max: 3, per: '14d' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.frequencyCap).toEqual({ max: 3, per: '14d' });
    expect((await f.api('GET', '/settings')).body.data.frequencyCap).toEqual({ max: 3, per: '14d' });
    expect((await cap(null)).body.data.frequencyCap).toBeNull();
  });

  it(
    'holds marketing mail at the cap (FREQUENCY_CAP), lets transactional mail and ignoreFrequencyCap through, ' +
      'and sends again once an email ages out',
    async () => {
      for (const email of ['ann@cap.dest', 'bob@cap.dest']) await contact(email);
      expect((await cap({ max: 2, per: '7d' })).status).toBe(200);
      await sendCampaign('Cap one', '@cap.dest');
      await sendCampaign('Cap two', '@cap.dest');
      const third = await sendCampaign('Cap three', '@cap.dest');
      expect(received('Cap three')).toEqual([]);
      expect(third).toMatchObject({ recipients: 2, sent: 0, suppressed: 2, suppressedByReason: { FREQUENCY_CAP: 2 } });
      const held = (await f.api('GET', '/emails?reason=FREQUENCY_CAP')).body.data.items;
      expect(held).toHaveLength(2);
      expect(held[0]).toMatchObject({ status: 'SUPPRESSED', statusReason: 'FREQUENCY_CAP' });

      const receipt = await f.api('POST', '/v1/send', {
        to: 'ann@cap.dest',
        from: SENDER,
        subject: 'Cap receipt',
        body: '<p>Thanks</p>',
      });
      await f.m.waitForStatus(f.auth, receipt.body.data.emails[0].email, ['SENT']);
      expect(received('Cap receipt')).toEqual(['ann@cap.dest']);

      const urgent = await createCampaign('Cap urgent', '@cap.dest', { ignoreFrequencyCap: true });
      expect((await f.api('GET', `/campaigns/${urgent}`)).body.data.ignoreFrequencyCap).toBe(true);
      expect((await f.api('POST', `/campaigns/${urgent}/send`)).status).toBe(202);
      await finish(urgent);
      expect(received('Cap urgent')).toEqual(['ann@cap.dest', 'bob@cap.dest']);

      // Ann's emails of a week ago and more age out of the window (moved back, as time would): she gets the next one.
      await f.m.t.ctx.db.execute(sql`UPDATE emails SET created_at = now() - interval '8 days'
      WHERE to_email = 'ann@cap.dest' AND marketing`);
      const fifth = await sendCampaign('Cap five', '@cap.dest');
      expect(received('Cap five')).toEqual(['ann@cap.dest']);
      expect(fifth).toMatchObject({ sent: 1, suppressedByReason: { FREQUENCY_CAP: 1 } });
      await cap(null);
    },
  );

  it('counts marketing workflow steps, and holds them at the cap too', async () => {
    await contact('flow@steps.dest');
    expect((await cap({ max: 1, per: '30d' })).status).toBe(200);
    const workflow = await f.createWorkflow({
      name: 'Marketing drip',
      trigger: { type: 'EVENT', event: 'browsed' },
      allowReentry: true,
      steps: [{ type: 'SEND_EMAIL', templateId: f.templates.marketing }],
    });
    await f.track('flow@steps.dest', 'browsed');
    const [first] = await f.waitForExecutions(workflow.id, ['COMPLETED']);
    const emailId = first!.history[0]!.detail!.emailId as string;
    await f.m.waitForStatus(f.auth, emailId, ['SENT']);

    const stats = await sendCampaign('After the drip', '@steps.dest');
    expect(stats).toMatchObject({ sent: 0, suppressedByReason: { FREQUENCY_CAP: 1 } });

    await f.track('flow@steps.dest', 'browsed');
    const runs = await f.waitForExecutions(workflow.id, ['COMPLETED'], 2);
    const second = runs.find((r) => r.id !== first!.id)!;
    expect(second.history[0]).toMatchObject({ status: 'SKIPPED', detail: { reason: 'FREQUENCY_CAP' } });
    await cap(null);
  });

  it('holds across campaigns sent at the same time: each contact gets at most the cap', async () => {
    const people = Array.from({ length: 40 }, (_, i) => `p${i}@race.dest`);
    const imported = await f.api(
      'POST',
      '/contacts/import',
      people.map((email) => ({ email })),
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(202);
    await until(
      async () => (await f.api('GET', `/contacts/import/${imported.body.data.id}`)).body.data.status === 'completed',
      'import',
    );
    expect((await cap({ max: 1, per: '1d' })).status).toBe(200);
    const ids = await Promise.all(['Race A', 'Race B', 'Race C'].map((name) => createCampaign(name, '@race.dest')));
    await Promise.all(ids.map((id) => f.api('POST', `/campaigns/${id}/send`)));
    const stats = await Promise.all(ids.map(finish));
    expect(stats.reduce((sum, s) => sum + s.sent, 0)).toBe(40);
    expect(stats.reduce((sum, s) => sum + (s.suppressedByReason.FREQUENCY_CAP ?? 0), 0)).toBe(80);
    const got = ['Race A', 'Race B', 'Race C'].flatMap(received).sort();
    expect(got).toEqual([...people].sort());
    await cap(null);
  });
});

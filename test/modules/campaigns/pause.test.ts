// Pause and resume, cancel from PAUSED, delete afterwards, and the reputation guard that pauses a campaign by
// itself (on bounces or complaints, and before an A/B test's rest): each recipient still gets exactly one email
// once the campaign goes on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { campaignSweepJob } from '../../../src/modules/campaigns/campaigns.jobs.ts';
import { guardReputation } from '../../../src/modules/campaigns/campaigns.guard.ts';
import { findCampaignById } from '../../../src/modules/campaigns/campaigns.repo.ts';
import { startFeedbackReceiver, type FeedbackReceiver } from '../../../src/modules/feedback/index.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { arf } from '../../support/reports.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { until } from '../../support/until.ts';

describe('pausing a campaign', () => {
  let m: MailFixture;
  let hook: WebhookReceiver;
  let feedback: FeedbackReceiver;
  let auth: { authorization: string };
  let projectId: string;

  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = auth) =>
    m.t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const statusOf = async (id: string, headers = auth) =>
    (await req('GET', `/campaigns/${id}`, undefined, headers)).json().data.status as string;
  const campaignTo = async (group: string, more: Record<string, unknown> = {}, headers = auth) => {
    const res = await req(
      'POST',
      '/campaigns',
      {
        name: `to ${group}`,
        subject: 'Hi',
        body: '<p>Hi <a href="{{unsubscribeUrl}}">u</a></p>',
        from: 'news@example.test',
        audienceType: 'FILTERED',
        audienceFilter: { field: 'data.group', operator: 'equals', value: group },
        ...more,
      },
      headers,
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  /** The campaign's emails by status (and hold), read from the log. */
  const emailsOf = async (id: string) =>
    rowsOf<{ status: string; reason: string | null; n: number }>(
      await m.t.ctx.db.execute(sql`
    SELECT status, status_reason AS reason, count(*)::int AS n FROM emails
    WHERE source_id = ${id}::uuid GROUP BY 1, 2`),
    );
  const count = (rows: { status: string; reason: string | null; n: number }[], status: string, reason?: string) =>
    rows
      .filter((r) => r.status === status && (reason === undefined || r.reason === reason))
      .reduce((sum, r) => sum + Number(r.n), 0);
  const addContacts = (group: string, n: number, project = projectId) =>
    upsertContacts({
      db: m.t.ctx.db,
      consent: { type: 'api' },
      projectId: project,
      rows: Array.from({ length: n }, (_, i) => ({
        email: `${group}${i}@dest.test`,
        defaultSubscribed: true,
        patch: { group },
      })),
    });

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    // A worker holds at most 10 messages at a time, so a pause finds most of a small send still in the queue.
    // RETURN_PATH_HOST: each message's MAIL FROM names it, so abuse reports to it come back to its email.
    m = await startMailFixture({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', SEND_MAX_IN_FLIGHT: '10', RETURN_PATH_HOST: 'feedback.herald.test' },
    });
    feedback = await startFeedbackReceiver(m.t.ctx, 0);
    const sender = await m.verifiedDomain('example.test');
    auth = sender.auth;
    projectId = sender.project.id;
    expect((await req('POST', '/webhooks', { url: hook.url, events: ['campaign.paused'] })).statusCode).toBe(201);
  });
  afterAll(async () => {
    await feedback.close();
    await m.close();
    await hook.close();
  });

  it('PAUSED hands nothing more over; resume goes on, and every recipient gets exactly one email', async () => {
    await addContacts('p', 60);
    const id = await campaignTo('p');
    m.sink.setReplyDelay(100);
    const before = m.sink.messages.length;
    expect((await req('POST', `/campaigns/${id}/send`)).statusCode).toBe(202);
    await m.sink.waitForMessages(before + 3, 20_000);
    const paused = await req('POST', `/campaigns/${id}/pause`);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().data).toMatchObject({ status: 'PAUSED', pausedReason: null });
    // What was on its way finishes; the rest waits, held.
    const settled = await until(async () => {
      const rows = await emailsOf(id);
      return count(rows, 'SENDING') === 0 ? rows : null;
    }, 'no email of the paused campaign in flight');
    const held = count(settled, 'QUEUED', 'CAMPAIGN_PAUSED');
    expect(held).toBeGreaterThan(0);
    expect(count(settled, 'SENT') + held).toBe(60);
    expect(m.sink.messages.length - before).toBe(count(settled, 'SENT'));
    // Paused: only resume, cancel and duplicate apply.
    for (const [method, url] of [
      ['POST', 'pause'],
      ['POST', 'send'],
      ['DELETE', ''],
      ['PATCH', ''],
    ] as const) {
      const res = await req(
        method,
        `/campaigns/${id}${url ? `/${url}` : ''}`,
        method === 'PATCH' ? { name: 'x' } : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(409);
    }
    expect((await req('POST', `/campaigns/${id}/duplicate`)).statusCode).toBe(201);

    m.sink.setReplyDelay(0);
    const resumed = await req('POST', `/campaigns/${id}/resume`);
    expect(resumed.json().data.status).toBe('SENDING');
    await until(async () => (await statusOf(id)) === 'SENT', 'SENT after resume', 30_000);
    for (let i = 0; i < 60; i++) expect(m.sink.perRecipient.get(`p${i}@dest.test`), `p${i}`).toBe(1);
    expect((await req('POST', `/campaigns/${id}/resume`)).statusCode).toBe(409);
    expect((await req('GET', `/campaigns/${id}/stats`)).json().data).toMatchObject({ recipients: 60, sent: 60 });
  });

  it('cancel works from PAUSED; a cancelled campaign can be deleted and its emails stay in the log', async () => {
    await addContacts('c', 60);
    const id = await campaignTo('c');
    m.sink.setReplyDelay(100);
    const before = m.sink.messages.length;
    await req('POST', `/campaigns/${id}/send`);
    await m.sink.waitForMessages(before + 3, 20_000);
    expect((await req('POST', `/campaigns/${id}/pause`)).statusCode).toBe(200);
    m.sink.setReplyDelay(0);
    expect((await req('POST', `/campaigns/${id}/cancel`)).statusCode).toBe(202);
    expect(await statusOf(id)).toBe('CANCELLED');
    const rows = await until(async () => {
      const all = await emailsOf(id);
      return count(all, 'SENDING') === 0 && count(all, 'QUEUED') === 0 ? all : null;
    }, 'the paused emails cancelled');
    expect(count(rows, 'CANCELLED')).toBeGreaterThan(0);
    expect(count(rows, 'SENT') + count(rows, 'CANCELLED')).toBe(60);
    expect((await req('DELETE', `/campaigns/${id}`)).statusCode).toBe(200);
    expect((await req('GET', `/campaigns/${id}`)).statusCode).toBe(404);
    expect((await req('GET', `/emails?sourceId=${id}&limit=100`)).json().data.total).toBe(60);
    expect((await req('POST', `/campaigns/${id}/pause`)).statusCode).toBe(404);
  });

  it(
    "pauses itself when, after 200 handoffs, its bounce rate passes the project's " + 'limit: reason, webhook, resume',
    async () => {
      expect((await req('PATCH', '/settings', { maxBounceRate: 0.1 })).statusCode).toBe(200);
      await addContacts('g', 221);
      for (let i = 0; i < 30; i++)
        m.sink.failRecipient(`g${i * 7}@dest.test`, { code: 550, message: '5.1.1 No such user' });
      // One address answers "try later" until told otherwise, so the send cannot finish before the guard looks.
      m.sink.failRecipient('g220@dest.test', { code: 451, message: '4.3.0 Try again later' });
      const id = await campaignTo('g');
      await req('POST', `/campaigns/${id}/send`);
      await until(async () => (await statusOf(id)) === 'PAUSED', 'paused by the guard', 60_000);
      const view = (await req('GET', `/campaigns/${id}`)).json().data;
      // It pauses as soon as a look finds the rate past the limit with at least 200 handed over.
      const [, after] = /^Bounce rate \d+\.\d\d% passed the limit of 10\.00% after (\d+) emails$/.exec(
        view.pausedReason,
      )!;
      expect(Number(after)).toBeGreaterThanOrEqual(200);
      const [event] = await hook.waitFor(
        1,
        20_000,
        (w) => w.json.type === 'campaign.paused' && w.json.data.campaignId === id,
      );
      expect(event!.json.data).toMatchObject({ campaignId: id, status: 'PAUSED', reason: view.pausedReason });
      expect((await req('GET', `/campaigns/${id}/stats`)).json().data.bounceRate).toBeGreaterThan(0.1);

      m.sink.clearFailures();
      expect((await req('POST', `/campaigns/${id}/resume`)).json().data).toMatchObject({
        status: 'SENDING',
        pausedReason: null,
      });
      // The figures that paused it have not changed, but a resumed campaign goes on: the guard judges only what is
      // settled after the resume.
      await until(async () => (await statusOf(id)) === 'SENT', 'SENT after resume', 30_000);
      expect((await req('GET', `/campaigns/${id}/stats`)).json().data).toMatchObject({
        recipients: 221,
        sent: 221,
        bounced: 30,
      });
      for (let i = 0; i < 221; i++)
        if (i % 7 !== 0 || i >= 210) expect(m.sink.perRecipient.get(`g${i}@dest.test`), `g${i}`).toBe(1);
    },
  );

  it(
    "pauses itself on complaints past the project's maxComplaintRate, fed back as abuse reports",
    { timeout: 120_000 },
    async () => {
      expect((await req('PATCH', '/settings', { maxBounceRate: 0.1, maxComplaintRate: 0.01 })).statusCode).toBe(200);
      await addContacts('k', 202);
      // The last address answers "try later" until told otherwise: the send is still under way when the reports come.
      m.sink.failRecipient('k201@dest.test', { code: 451, message: '4.3.0 Try again later' });
      const id = await campaignTo('k');
      await req('POST', `/campaigns/${id}/send`);
      await until(async () => count(await emailsOf(id), 'SENT') === 201, 'all but one handed over', 60_000);
      expect(await statusOf(id)).toBe('SENDING');
      // Three recipients report it as spam to their mailbox provider, which sends the reports to its return path.
      const client = nodemailer.createTransport({
        host: '127.0.0.1',
        port: feedback.port,
        secure: false,
        ignoreTLS: true,
      });
      for (const who of ['k0', 'k1', 'k2']) {
        const returnPath = m.sink.messages.find((msg) => msg.to[0] === `${who}@dest.test`)!.from;
        await client.sendMail({
          envelope: { from: 'fbl@mailbox.test', to: [returnPath] },
          raw: arf({ to: returnPath, recipient: `${who}@dest.test` }),
        });
      }
      await until(async () => (await statusOf(id)) === 'PAUSED', 'paused by the guard', 30_000);
      const view = (await req('GET', `/campaigns/${id}`)).json().data;
      expect(view.pausedReason).toBe('Complaint rate 1.49% passed the limit of 1.00% after 201 emails');
      const [event] = await hook.waitFor(
        1,
        20_000,
        (w) => w.json.type === 'campaign.paused' && w.json.data.campaignId === id,
      );
      expect(event!.json.data).toMatchObject({ status: 'PAUSED', reason: view.pausedReason });
      expect((await req('GET', `/campaigns/${id}/stats`)).json().data).toMatchObject({
        sent: 201,
        complained: 3,
        bounced: 0,
      });
      m.sink.clearFailures('k201@dest.test');
      expect((await req('POST', `/campaigns/${id}/cancel`)).statusCode).toBe(202);
    },
  );

  it(
    'the default bounce limit is 8% for a project that never set one; fewer than 200 handoffs never pause',
    { timeout: 120_000 },
    async () => {
      const fresh = await m.verifiedDomain('fresh.test');
      await addContacts('d', 221, fresh.project.id);
      for (let i = 0; i < 30; i++)
        m.sink.failRecipient(`d${i * 7}@dest.test`, { code: 550, message: '5.1.1 No such user' });
      m.sink.failRecipient('d220@dest.test', { code: 451, message: '4.3.0 Try again later' });
      const id = await campaignTo('d', { from: 'news@fresh.test' }, fresh.auth);
      await req('POST', `/campaigns/${id}/send`, undefined, fresh.auth);
      await until(async () => (await statusOf(id, fresh.auth)) === 'PAUSED', 'paused by the guard', 60_000);
      expect((await req('GET', `/campaigns/${id}`, undefined, fresh.auth)).json().data.pausedReason).toMatch(
        /^Bounce rate \d+\.\d\d% passed the limit of 8\.00% after \d+ emails$/,
      );
      m.sink.clearFailures('d220@dest.test');
      expect((await req('POST', `/campaigns/${id}/cancel`, undefined, fresh.auth)).statusCode).toBe(202);

      // Half of 150 bounce: far past the limit, but too few to judge a list by.
      await addContacts('few', 151, fresh.project.id);
      for (let i = 0; i < 150; i += 2)
        m.sink.failRecipient(`few${i}@dest.test`, { code: 550, message: '5.1.1 No such user' });
      m.sink.failRecipient('few150@dest.test', { code: 451, message: '4.3.0 Try again later' });
      const few = await campaignTo('few', { from: 'news@fresh.test' }, fresh.auth);
      await req('POST', `/campaigns/${few}/send`, undefined, fresh.auth);
      await until(
        async () => count(await emailsOf(few), 'SENT') + count(await emailsOf(few), 'BOUNCED') === 150,
        'all but one settled',
        60_000,
      );
      // The guard, looking now (as its checks do while the send is under way), leaves it alone.
      expect(await guardReputation(m.t.ctx, (await findCampaignById(m.t.ctx.db, few))!)).toBeNull();
      m.sink.clearFailures('few150@dest.test');
      await until(async () => (await statusOf(few, fresh.auth)) === 'SENT', 'SENT', 30_000);
      expect((await req('GET', `/campaigns/${few}/stats`, undefined, fresh.auth)).json().data).toMatchObject({
        sent: 151,
        bounced: 75,
        bounceRate: expect.closeTo(75 / 151, 3),
      });
      expect(hook.received.filter((w) => w.json.type === 'campaign.paused' && w.json.data.campaignId === few)).toEqual(
        [],
      );
    },
  );

  it(
    "judges an A/B test's share before its rest: with a short wait, a share that " +
      'bounces past the limit pauses it and the rest gets nothing',
    { timeout: 120_000 },
    async () => {
      expect((await req('PATCH', '/settings', { maxBounceRate: 0.1 })).statusCode).toBe(200);
      // Half of 400 is the test share: the 200 handoffs the guard needs.
      await addContacts('ab', 400);
      for (let i = 0; i < 400; i += 3)
        m.sink.failRecipient(`ab${i}@dest.test`, { code: 550, message: '5.1.1 No such user' });
      const id = await campaignTo('ab', {
        variants: [{ subject: 'A' }, { subject: 'B' }],
        abTest: { testPercent: 50, metric: 'opens', waitFor: '1s' },
      });
      await req('POST', `/campaigns/${id}/send`);
      await until(async () => (await statusOf(id)) === 'PAUSED', 'paused by the guard', 60_000);
      const view = (await req('GET', `/campaigns/${id}`)).json().data;
      // The winner waited for the whole share to be handed over, so the guard judged all of it.
      expect(view).toMatchObject({
        winnerVariantId: null,
        pausedReason: expect.stringMatching(/^Bounce rate \d+\.\d\d% passed the limit of 10\.00% after 200 emails$/),
      });
      const rows = await emailsOf(id);
      expect(count(rows, 'SENT') + count(rows, 'BOUNCED')).toBe(200);
      expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe(200);
      const reached = () => [...m.sink.perRecipient.entries()].filter(([address]) => /^ab\d/.test(address));
      expect(reached().length).toBe(count(rows, 'SENT'));

      // Resumed, the test goes on where it was: its wait is over, so the winner goes to the rest at once.
      m.sink.clearFailures();
      expect((await req('POST', `/campaigns/${id}/resume`)).json().data).toMatchObject({
        status: 'TESTING',
        pausedReason: null,
      });
      await until(async () => (await statusOf(id)) === 'SENT', 'SENT after the resume', 60_000);
      expect((await req('GET', `/campaigns/${id}/stats`)).json().data).toMatchObject({ recipients: 400, sent: 400 });
      expect(reached().length).toBe(400 - count(rows, 'BOUNCED'));
      expect(reached().every(([, n]) => n === 1)).toBe(true);
    },
  );

  it(
    'a winner picked by hand faces the guard too: 409 with the reason, and the campaign PAUSED',
    { timeout: 120_000 },
    async () => {
      await addContacts('abh', 400);
      for (let i = 0; i < 400; i += 3)
        m.sink.failRecipient(`abh${i}@dest.test`, { code: 550, message: '5.1.1 No such user' });
      const id = await campaignTo('abh', {
        variants: [{ subject: 'A' }, { subject: 'B' }],
        abTest: { testPercent: 50, metric: 'opens', waitFor: '1d' },
      });
      await req('POST', `/campaigns/${id}/send`);
      await until(
        async () => {
          const rows = await emailsOf(id);
          return count(rows, 'SENT') + count(rows, 'BOUNCED') === 200;
        },
        'the test share handed over',
        60_000,
      );
      const picked = await req('POST', `/campaigns/${id}/winner`, { variantId: 'B' });
      expect(picked.statusCode, picked.body).toBe(409);
      expect(picked.json().error.message).toMatch(
        new RegExp(
          '^The reputation guard paused this campaign instead of sending the rest: ' +
            String.raw`Bounce rate \d+\.\d\d% passed the limit of 10\.00% after 200 emails$`,
        ),
      );
      expect((await req('GET', `/campaigns/${id}`)).json().data).toMatchObject({
        status: 'PAUSED',
        winnerVariantId: null,
      });
      expect((await emailsOf(id)).reduce((sum, r) => sum + r.n, 0)).toBe(200);
      m.sink.clearFailures();
      expect((await req('POST', `/campaigns/${id}/cancel`)).statusCode).toBe(202);
    },
  );

  // A local-time send goes out zone by zone while SCHEDULED: UTC+14 (Kiritimati) has its turn an hour ago, UTC−11
  // (Pago Pago) 25 hours from now.
  const localSendAt = () => {
    const wall = new Date(Date.now() - 3_600_000 + 14 * 3_600_000).toISOString();
    return { date: wall.slice(0, 10), localTime: wall.slice(11, 16) };
  };
  const addZoned = (group: string, n: number, timezone: string, from = 0) =>
    upsertContacts({
      db: m.t.ctx.db,
      consent: { type: 'api' },
      projectId,
      rows: Array.from({ length: n }, (_, i) => ({
        email: `${group}${from + i}@dest.test`,
        defaultSubscribed: true,
        patch: { group, timezone },
      })),
    });

  it(
    'pauses a local-time send under way and resumes it waiting for the zones still to ' +
      'come; one merely scheduled is unscheduled instead',
    async () => {
      await addZoned('lt', 3, 'Pacific/Kiritimati');
      await addZoned('lt', 2, 'Pacific/Pago_Pago', 3);
      const id = await campaignTo('lt');
      expect((await req('POST', `/campaigns/${id}/send`, { sendAt: localSendAt() })).statusCode).toBe(202);
      await until(async () => count(await emailsOf(id), 'SENT') === 3, 'the zone whose turn has come sent');
      expect(await statusOf(id)).toBe('SCHEDULED');
      const waiting = (await req('GET', `/emails?sourceId=${id}&status=SCHEDULED&limit=10`)).json().data.items as {
        id: string;
        scheduledAt: string;
      }[];
      expect(waiting).toHaveLength(2);

      const paused = await req('POST', `/campaigns/${id}/pause`);
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json().data).toMatchObject({ status: 'PAUSED', pausedReason: null });
      expect(count(await emailsOf(id), 'SCHEDULED', 'CAMPAIGN_PAUSED')).toBe(2);
      for (const [method, url] of [
        ['POST', 'pause'],
        ['POST', 'send'],
        ['POST', 'unschedule'],
        ['PATCH', ''],
      ] as const) {
        const res = await req(
          method,
          `/campaigns/${id}${url ? `/${url}` : ''}`,
          method === 'PATCH' ? { name: 'x' } : undefined,
        );
        expect(res.statusCode, `${method} ${url}`).toBe(409);
      }

      // Resumed before the last zone's turn: SCHEDULED again, each waiting email still due at its own time.
      const resumed = await req('POST', `/campaigns/${id}/resume`);
      expect(resumed.statusCode, resumed.body).toBe(200);
      expect(resumed.json().data).toMatchObject({ status: 'SCHEDULED', pausedReason: null });
      const after = (await req('GET', `/emails?sourceId=${id}&status=SCHEDULED&limit=10`)).json().data.items as {
        id: string;
        scheduledAt: string;
      }[];
      expect(after.map((e) => [e.id, e.scheduledAt]).sort()).toEqual(waiting.map((e) => [e.id, e.scheduledAt]).sort());
      expect(count(await emailsOf(id), 'SCHEDULED', 'CAMPAIGN_PAUSED')).toBe(0);
      expect((await req('POST', `/campaigns/${id}/cancel`)).statusCode).toBe(202);
      expect(count(await emailsOf(id), 'CANCELLED')).toBe(2);

      // A campaign only waiting for its time (nothing of it sent) is not paused: it is unscheduled.
      const later = await campaignTo('lt');
      const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
      expect((await req('POST', `/campaigns/${later}/send`, { scheduledFor: at })).statusCode).toBe(202);
      const refused = await req('POST', `/campaigns/${later}/pause`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.suggestion).toMatch(/Unschedule/);
      expect((await req('POST', `/campaigns/${later}/unschedule`)).json().data.status).toBe('DRAFT');
    },
  );

  it(
    'the reputation guard watches a local-time send under way: its bounces pause it ' + 'while it is SCHEDULED',
    async () => {
      expect((await req('PATCH', '/settings', { maxBounceRate: 0.1 })).statusCode).toBe(200);
      await addZoned('lg', 221, 'Pacific/Kiritimati');
      await addZoned('lg', 1, 'Pacific/Pago_Pago', 221);
      for (let i = 0; i < 30; i++)
        m.sink.failRecipient(`lg${i * 7}@dest.test`, { code: 550, message: '5.1.1 No such user' });
      const id = await campaignTo('lg');
      expect((await req('POST', `/campaigns/${id}/send`, { sendAt: localSendAt() })).statusCode).toBe(202);
      await until(
        async () => {
          const rows = await emailsOf(id);
          return count(rows, 'SENT') + count(rows, 'BOUNCED') === 221 || (await statusOf(id)) === 'PAUSED';
        },
        'the zone whose turn has come handed over (or the guard already looked)',
        60_000,
      );
      // The minute's sweep (run here rather than waited for) finds the rate past the limit.
      await campaignSweepJob.handler({}, m.t.ctx, { id: 'manual', retryCount: 0, retryLimit: 0 });
      const view = (await req('GET', `/campaigns/${id}`)).json().data;
      expect(view.status).toBe('PAUSED');
      expect(view.pausedReason).toMatch(/^Bounce rate \d+\.\d\d% passed the limit of 10\.00% after \d+ emails$/);
      const [event] = await hook.waitFor(
        1,
        20_000,
        (w) => w.json.type === 'campaign.paused' && w.json.data.campaignId === id,
      );
      expect(event!.json.data).toMatchObject({ campaignId: id, status: 'PAUSED', reason: view.pausedReason });
      expect(count(await emailsOf(id), 'SCHEDULED', 'CAMPAIGN_PAUSED')).toBe(1);
      m.sink.clearFailures();
      expect((await req('POST', `/campaigns/${id}/resume`)).json().data).toMatchObject({
        status: 'SCHEDULED',
        pausedReason: null,
      });
      // Resumed, the figures that paused it no longer count: the sweep leaves it alone.
      await campaignSweepJob.handler({}, m.t.ctx, { id: 'manual', retryCount: 0, retryLimit: 0 });
      expect(await statusOf(id)).toBe('SCHEDULED');
      expect((await req('POST', `/campaigns/${id}/cancel`)).statusCode).toBe(202);
    },
  );
});

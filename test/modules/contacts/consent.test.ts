// The consent ledger: every kind of change writes its entry in the change's transaction, with its source, the client
// and (for links in mail) the email, whose campaign counts the unsubscribe wherever it was made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { sql } from 'drizzle-orm';
import { startFeedbackReceiver, type FeedbackReceiver } from '../../../src/modules/feedback/index.ts';
import { expectError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { firstUser } from '../../support/people.ts';
import { arf } from '../../support/reports.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };
interface Entry {
  at: string;
  action: string;
  source: { type: string; id?: string; emailId?: string };
  topicId?: string;
  ip?: string;
  userAgent?: string;
  text?: string;
}
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };

describe('the consent ledger', () => {
  let m: MailFixture;
  let feedback: FeedbackReceiver;
  let auth: Auth;
  let projectId: string;
  let news: string;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = auth) =>
    m.t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const ledger = async (id: string) => {
    const res = await call('GET', `/contacts/${id}/consent`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Entry[];
  };
  const shape = (entries: Entry[]) =>
    entries.map((e) => [e.action, e.source.type, ...(e.topicId ? [e.topicId] : [])].join(' '));
  const sendCampaign = async (group: string, body: string) => {
    const made = await call('POST', '/campaigns', {
      name: group,
      subject: 'Hello',
      body,
      from: 'news@consent.test',
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.group', operator: 'equals', value: group },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id as string;
    expect((await call('POST', `/campaigns/${id}/send`)).statusCode).toBe(202);
    await until(async () => (await call('GET', `/campaigns/${id}`)).json().data.status === 'SENT', 'campaign sent');
    return id;
  };
  const create = async (email: string, payload: Record<string, unknown> = {}) =>
    (await call('POST', '/contacts', { email, ...payload })).json().data as { id: string };

  beforeAll(async () => {
    m = await startMailFixture({ env: { RETURN_PATH_HOST: 'feedback.herald.test' } });
    feedback = await startFeedbackReceiver(m.t.ctx, 0);
    const sender = await m.verifiedDomain('consent.test');
    auth = sender.auth;
    projectId = sender.project.id;
    news = (await call('POST', '/topics', { name: 'News', defaultSubscription: 'OPT_IN' })).json().data.id;
  });
  afterAll(async () => {
    await feedback.close();
    await m.close();
  });

  it('records API changes with the client, topic choices, and leaves a data-only change out', async () => {
    const created = await m.t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...auth, 'user-agent': 'backend/1.0' },
      payload: { email: 'api@dest.test' },
    });
    const { id } = created.json().data as { id: string };
    await call('PATCH', `/contacts/${id}`, { data: { plan: 'pro' } });
    await call('PATCH', `/contacts/${id}`, { subscribed: false });
    await call('PATCH', `/contacts/${id}`, { subscribed: false });
    await call('PATCH', `/contacts/${id}/topics`, { topics: [{ id: news, subscribed: true }] });
    await call('PATCH', `/contacts/${id}/topics`, { topics: [{ id: news, subscribed: false }] });
    const entries = await ledger(id);
    expect(shape(entries)).toEqual([
      'subscribed api',
      'unsubscribed api',
      `topic_in api ${news}`,
      `topic_out api ${news}`,
    ]);
    expect(entries[0]).toMatchObject({ ip: '127.0.0.1', userAgent: 'backend/1.0' });
    // A contact created unsubscribed (a transactional recipient) has given nothing: no entry.
    const quiet = await create('quiet@dest.test', { subscribed: false });
    expect(await ledger(quiet.id)).toEqual([]);
    expectError(await call('GET', '/contacts/00000000-0000-4000-8000-000000000000/consent'), 404, 'NOT_FOUND');
  });

  it('names the dashboard when a signed-in person makes the change', async () => {
    const owner = await firstUser(m.t);
    const made = await owner.call('POST', '/contacts', {
      project: projectId,
      payload: { email: 'person@dest.test' },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(shape(await ledger(made.json().data.id))).toEqual(['subscribed dashboard']);
  });

  it('records imports and bulk actions with their job ids', async () => {
    const upload = await m.t.app.inject({
      method: 'POST',
      url: '/contacts/import',
      headers: { ...auth, 'content-type': 'text/csv' },
      payload: 'email,subscribed\nimported@dest.test,true\nnot-yet@dest.test,false\n',
    });
    expect(upload.statusCode, upload.body).toBe(202);
    const importId = upload.json().data.id as string;
    await until(
      async () => (await call('GET', `/contacts/import/${importId}`)).json().data.status === 'completed',
      'import completed',
    );
    const imported = (await call('GET', '/contacts?email=imported@dest.test')).json().data.items[0] as { id: string };
    expect(await ledger(imported.id)).toMatchObject([
      { action: 'subscribed', source: { type: 'import', id: importId } },
    ]);

    const bulk = await call('POST', '/contacts/bulk', { action: 'unsubscribe', contactIds: [imported.id] });
    expect(bulk.statusCode, bulk.body).toBe(202);
    const bulkId = bulk.json().data.id as string;
    await until(
      async () => (await call('GET', `/contacts/bulk/${bulkId}`)).json().data.status === 'COMPLETED',
      'bulk completed',
    );
    expect((await ledger(imported.id))[1]).toMatchObject({
      action: 'unsubscribed',
      source: { type: 'bulk', id: bulkId },
    });
  });

  it('counts an unsubscribe from the preference centre in the campaign that linked to it, as its link', async () => {
    for (const email of ['pc@dest.test', 'link@dest.test', 'oneclick@dest.test'])
      await create(email, { data: { group: 'pc' } });
    const campaignId = await sendCampaign(
      'pc',
      '<p><a href="{{manageUrl}}">Preferences</a> <a href="{{unsubscribeUrl}}">Leave</a></p>',
    );
    const messages = m.sink.messages.filter((msg) => msg.from.endsWith('consent.test'));
    const htmlOf = async (to: string) =>
      String((await simpleParser(messages.find((msg) => msg.to[0] === to)!.raw)).html);
    const linkIn = (html: string, kind: string) =>
      new URL(new RegExp(`href="(https://mail\\.herald\\.test/${kind}/[^"]+)"`).exec(html)![1]!).pathname;

    // The preference centre's "unsubscribe from everything". Consent links are not click-tracked: the preference link
    // goes to the page itself, and the email it came in still gets the unsubscribe.
    const manage = linkIn(await htmlOf('pc@dest.test'), 'manage');
    const left = await m.t.app.inject({
      method: 'POST',
      url: manage,
      headers: { ...formHeaders, 'user-agent': 'Mozilla/5.0 (reader)' },
      payload: 'action=unsubscribe',
    });
    expect(left.statusCode, left.body).toBe(200);
    // The unsubscribe link's page button, and a mail client's one-click request.
    const page = linkIn(await htmlOf('link@dest.test'), 'unsubscribe');
    const shown = await m.t.app.inject({ method: 'GET', url: page, headers: { accept: 'text/html' } });
    expect(shown.body).toContain('name="via" value="page"');
    await m.t.app.inject({
      method: 'POST',
      url: page,
      headers: formHeaders,
      payload: 'List-Unsubscribe=One-Click&via=page',
    });
    const oneClick = linkIn(await htmlOf('oneclick@dest.test'), 'unsubscribe');
    await m.t.app.inject({
      method: 'POST',
      url: oneClick,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });

    const emails = (await call('GET', `/emails?sourceId=${campaignId}`)).json().data.items as {
      id: string;
      to: string;
      contactId: string;
    }[];
    const byTo = new Map(emails.map((e) => [e.to, e]));
    const pc = byTo.get('pc@dest.test')!;
    const pcLedger = await ledger(pc.contactId);
    expect(pcLedger.at(-1)).toMatchObject({
      action: 'unsubscribed',
      source: { type: 'preference_centre', emailId: pc.id },
      userAgent: 'Mozilla/5.0 (reader)',
    });
    expect((await ledger(byTo.get('link@dest.test')!.contactId)).at(-1)?.source.type).toBe('unsubscribe_link');
    expect((await ledger(byTo.get('oneclick@dest.test')!.contactId)).at(-1)?.source.type).toBe('one_click');
    const stats = (await call('GET', `/campaigns/${campaignId}/stats`)).json().data as { unsubscribed: number };
    expect(stats.unsubscribed).toBe(3);
    const timeline = (await call('GET', `/emails/${pc.id}/timeline`)).json().data as {
      type: string;
      detail: { via?: string };
    }[];
    expect(timeline.find((t) => t.type === 'unsubscribed')?.detail.via).toBe('preference_centre');

    // Resubscribing on the preference page is recorded too, and a second unsubscribe counts the campaign once.
    await m.t.app.inject({ method: 'POST', url: manage, headers: formHeaders, payload: 'action=resubscribe' });
    await m.t.app.inject({ method: 'POST', url: manage, headers: formHeaders, payload: 'action=unsubscribe' });
    expect(shape((await ledger(pc.contactId)).slice(-3))).toEqual([
      'unsubscribed preference_centre',
      'subscribed preference_centre',
      'unsubscribed preference_centre',
    ]);
    expect(
      ((await call('GET', `/campaigns/${campaignId}/stats`)).json().data as { unsubscribed: number }).unsubscribed,
    ).toBe(3);
  });

  it('records a complaint, and the double opt-in confirmation with the signup', async () => {
    await create('angry@dest.test', { data: { group: 'angry' } });
    const campaignId = await sendCampaign('angry', '<p>Buy</p>');
    const emailId = ((await call('GET', `/emails?sourceId=${campaignId}`)).json().data.items[0] as { id: string }).id;
    const returnPath = m.sink.messages.find(
      (msg) => msg.to[0] === 'angry@dest.test' && msg.from.endsWith('@bounces.consent.test'),
    )!.from;
    await nodemailer
      .createTransport({ host: '127.0.0.1', port: feedback.port, secure: false, ignoreTLS: true })
      .sendMail({
        envelope: { from: 'fbl@mailbox.test', to: [returnPath] },
        raw: arf({ to: returnPath, recipient: 'angry@dest.test' }),
      });
    const angry = (await call('GET', '/contacts?email=angry@dest.test')).json().data.items[0] as { id: string };
    await until(async () => (await ledger(angry.id)).length === 2, 'the complaint is recorded');
    expect((await ledger(angry.id))[1]).toMatchObject({
      action: 'unsubscribed',
      source: { type: 'complaint', id: emailId },
    });

    const template = await call('POST', '/templates', {
      name: 'Confirm',
      subject: 'Confirm',
      body: '<a href="{{confirmUrl}}">Confirm</a>',
      type: 'MARKETING',
      from: 'hello@consent.test',
    });
    expect(template.statusCode, template.body).toBe(201);
    await call('PATCH', '/settings', { doubleOptIn: { templateId: template.json().data.id } });
    const signup = await call('POST', '/v1/subscribe', { email: 'doi@dest.test', topics: [news] });
    expect(signup.statusCode, signup.body).toBe(200);
    const contact = (await call('GET', '/contacts?email=doi@dest.test')).json().data.items[0] as {
      id: string;
      confirmation: { status: string; sentAt: string | null };
    };
    expect(contact.confirmation.status).toBe('PENDING');
    expect(shape(await ledger(contact.id))).toEqual([`topic_in api ${news}`]);
    const mail = await until(async () => m.sink.messages.find((msg) => msg.to[0] === 'doi@dest.test'), 'confirmation');
    const confirm = new URL(/href="([^"]+\/confirm\/[^"]+)"/.exec(String((await simpleParser(mail.raw)).html))![1]!)
      .pathname;
    const confirmed = await m.t.app.inject({ method: 'POST', url: confirm, headers: formHeaders });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(shape(await ledger(contact.id))).toEqual([`topic_in api ${news}`, 'confirmed api', 'subscribed api']);
    const view = (await call('GET', `/contacts/${contact.id}`)).json().data as {
      subscribed: boolean;
      confirmation: { status: string; confirmedAt: string | null };
    };
    expect(view).toMatchObject({ subscribed: true, confirmation: { status: 'CONFIRMED' } });
    expect(view.confirmation.confirmedAt).not.toBeNull();
  });

  it('is in the data-subject export and goes with the contact', async () => {
    const { id } = await create('export@dest.test');
    const exported = (await call('GET', `/contacts/${id}/export`)).json().data as { consent: Entry[] };
    expect(shape(exported.consent)).toEqual(['subscribed api']);
    expect((await call('DELETE', `/contacts/${id}`)).statusCode).toBe(200);
    const rows = await m.t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM consent_ledger WHERE contact_id = ${id}`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it('fails the change when its ledger entry cannot be written', async () => {
    const { id } = await create('atomic@dest.test');
    await m.t.ctx.db.execute(sql`ALTER TABLE consent_ledger ADD CONSTRAINT refuse_all CHECK (false) NOT VALID`);
    try {
      const refused = await call('PATCH', `/contacts/${id}`, { subscribed: false });
      expect(refused.statusCode).toBe(500);
    } finally {
      await m.t.ctx.db.execute(sql`ALTER TABLE consent_ledger DROP CONSTRAINT refuse_all`);
    }
    const after = (await call('GET', `/contacts/${id}`)).json().data as { subscribed: boolean };
    expect(after.subscribed).toBe(true);
    const events = (await call('GET', `/events?contactId=${id}&name=contact.unsubscribed`)).json().data.items;
    expect(events).toEqual([]);
    expect(shape(await ledger(id))).toEqual(['subscribed api']);
  });
});

// Snooze: a contact pauses marketing mail until a time (PATCH /contacts/{id}, the dashboard, the preference centre);
// marketing mail is SUPPRESSED with reason SNOOZED meanwhile, transactional mail still reaches the SMTP sink, and once
// the snooze has passed marketing mail flows again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createUnsubscribeToken } from '../../../src/mail/links.ts';
import { APP_SECRET } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };
const DAY_MS = 86_400_000;
const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();
const formHeaders = {
  'content-type': 'application/x-www-form-urlencoded',
  accept: 'text/html',
  origin: 'http://localhost:80',
  host: 'localhost:80',
};

describe('snooze', () => {
  let m: MailFixture;
  let auth: Auth;
  let projectId: string;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const contact = async (email: string) => {
    const res = await call('POST', '/contacts', { email });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().data as { id: string; snoozedUntil: string | null };
  };
  const events = async (id: string, name: string) =>
    (await call('GET', `/events?contactId=${id}&name=${name}`)).json().data.items as {
      data: Record<string, unknown>;
    }[];
  const sendCampaign = async (name: string) => {
    const created = await call('POST', '/campaigns', {
      name,
      audienceType: 'FILTERED',
      audienceFilter: { field: 'email', operator: 'endsWith', value: '@snooze.dest' },
      subject: name,
      body: '<p>News <a href="{{unsubscribeUrl}}">unsubscribe</a></p>',
      from: 'news@snooze.test',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect((await call('POST', `/campaigns/${id}/send`)).statusCode).toBe(202);
    await until(async () => (await call('GET', `/campaigns/${id}`)).json().data.status === 'SENT', `${name} SENT`);
    return id;
  };
  const received = (subject: string) =>
    m.sink.messages
      .filter((msg) => msg.raw.toString().includes(`Subject: ${subject}`))
      .map((msg) => msg.to[0])
      .sort();

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('snooze.test');
    auth = sender.auth;
    projectId = sender.project.id;
  });
  afterAll(() => m.close());

  it('takes a snooze through PATCH, shows it on the contact and in the list, and records the events', async () => {
    const c = await contact('patch@elsewhere.dest');
    expect(c.snoozedUntil).toBeNull();
    const until = new Date(Date.now() + 14 * DAY_MS).toISOString();
    const patched = await call('PATCH', `/contacts/${c.id}`, { snoozedUntil: until });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data.snoozedUntil).toBe(until);
    expect((await call('GET', `/contacts/${c.id}`)).json().data.snoozedUntil).toBe(until);
    const listed = (await call('GET', '/contacts?email=patch@elsewhere.dest')).json().data.items[0];
    expect(listed.snoozedUntil).toBe(until);
    expect(await events(c.id, 'contact.snoozed')).toMatchObject([{ data: { until, source: 'api' } }]);
    // The same value again changes nothing.
    await call('PATCH', `/contacts/${c.id}`, { snoozedUntil: until });
    expect(await events(c.id, 'contact.snoozed')).toHaveLength(1);

    const resumed = await call('PATCH', `/contacts/${c.id}`, { snoozedUntil: null });
    expect(resumed.json().data.snoozedUntil).toBeNull();
    expect(await events(c.id, 'contact.unsnoozed')).toMatchObject([{ data: { source: 'api' } }]);
    const audit = (await call('GET', `/audit-log?resourceId=${c.id}`)).json();
    expect(JSON.stringify(audit)).toContain('snoozedUntil');
  });

  it('refuses a snooze of 10 years, one in the past and one that is no date (422)', async () => {
    const c = await contact('bad@elsewhere.dest');
    const tenYears = new Date(Date.now() + 3650 * DAY_MS).toISOString();
    for (const snoozedUntil of [tenYears, new Date(Date.now() - DAY_MS).toISOString(), 'next week', 5]) {
      expectError(await call('PATCH', `/contacts/${c.id}`, { snoozedUntil }), 422, 'VALIDATION_ERROR');
    }
    const yearAhead = new Date(Date.now() + 365 * DAY_MS).toISOString();
    expect((await call('PATCH', `/contacts/${c.id}`, { snoozedUntil: yearAhead })).statusCode).toBe(200);
    expect((await call('GET', `/contacts/${c.id}`)).json().data.snoozedUntil).toBe(yearAhead);
  });

  it('suppresses marketing mail to a snoozed contact (SNOOZED), sends transactional, then flows again', async () => {
    const sleeper = await contact('sleeper@snooze.dest');
    await contact('awake@snooze.dest');
    const later = new Date(Date.now() + 30 * DAY_MS).toISOString();
    expect((await call('PATCH', `/contacts/${sleeper.id}`, { snoozedUntil: later })).statusCode).toBe(200);

    const first = await sendCampaign('While snoozed');
    expect(received('While snoozed')).toEqual(['awake@snooze.dest']);
    const held = (await call('GET', `/emails?contactId=${sleeper.id}&reason=SNOOZED`)).json().data.items;
    expect(held).toMatchObject([
      { status: 'SUPPRESSED', statusReason: 'SNOOZED', source: { type: 'CAMPAIGN', id: first } },
    ]);
    const stats = (await call('GET', `/campaigns/${first}/stats`)).json().data;
    expect(stats).toMatchObject({ recipients: 2, sent: 1, suppressed: 1, suppressedByReason: { SNOOZED: 1 } });

    // Marketing mail through /v1/send is held too; transactional mail reaches the sink.
    const marketing = await call('POST', '/v1/send', {
      to: 'sleeper@snooze.dest',
      from: 'news@snooze.test',
      subject: 'Marketing send',
      body: '<p>Offer <a href="{{unsubscribeUrl}}">unsubscribe</a></p>',
      stream: 'marketing',
    });
    expect(marketing.json().data.emails[0].status).toBe('SUPPRESSED');
    const receipt = await call('POST', '/v1/send', {
      to: 'sleeper@snooze.dest',
      from: 'billing@snooze.test',
      subject: 'Your receipt',
      body: '<p>Thanks</p>',
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    await m.waitForStatus(auth, receipt.json().data.emails[0].email, ['SENT']);
    expect(received('Your receipt')).toEqual(['sleeper@snooze.dest']);

    // The snooze passes (moved into the past, as time would): marketing mail reaches the contact again.
    await m.t.ctx.db.execute(
      sql`UPDATE contacts SET snoozed_until = now() - interval '1 second' WHERE id = ${sleeper.id}::uuid`,
    );
    expect((await call('GET', `/contacts/${sleeper.id}`)).json().data.snoozedUntil).toBeNull();
    await sendCampaign('After the snooze');
    expect(received('After the snooze')).toEqual(['awake@snooze.dest', 'sleeper@snooze.dest']);
  });

  it('holds at delivery marketing mail queued before the contact snoozed', async () => {
    const c = await contact('late@elsewhere.dest');
    const sent = await call('POST', '/v1/send', {
      to: 'late@elsewhere.dest',
      from: 'news@snooze.test',
      subject: 'Scheduled offer',
      body: '<p>Offer <a href="{{unsubscribeUrl}}">unsubscribe</a></p>',
      stream: 'marketing',
      scheduledAt: new Date(Date.now() + DAY_MS).toISOString(),
    });
    const emailId = sent.json().data.emails[0].email as string;
    expect(sent.json().data.emails[0].status).toBe('SCHEDULED');
    const snooze = new Date(Date.now() + 7 * DAY_MS).toISOString();
    expect((await call('PATCH', `/contacts/${c.id}`, { snoozedUntil: snooze })).statusCode).toBe(200);
    // Its time comes (moved to now, as time would).
    await m.t.ctx.db.execute(
      sql`UPDATE emails SET scheduled_at = now(), next_attempt_at = now() WHERE id = ${emailId}::uuid`,
    );
    await m.t.ctx.db.execute(sql`SELECT pg_notify('herald_email_due', '')`);
    const email = await m.waitForStatus(auth, emailId, ['SUPPRESSED', 'SENT']);
    expect(email).toMatchObject({ status: 'SUPPRESSED', statusReason: 'SNOOZED' });
    expect(received('Scheduled offer')).toEqual([]);
  });

  it('pauses and resumes from the preference centre with plain form posts, in the page language', async () => {
    const c = await contact('reader@elsewhere.dest');
    const path = `/manage/${createUnsubscribeToken(APP_SECRET, { projectId, contactId: c.id })}`;
    const page = await m.t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
    expect(page.body).toContain('Pause for 2 weeks');
    expect(page.body).toContain('name="pause" value="3m"');
    expect(page.body).not.toContain('<script');
    const post = (fields: [string, string][], headers: Record<string, string> = {}) =>
      m.t.app.inject({ method: 'POST', url: path, headers: { ...formHeaders, ...headers }, payload: form(fields) });

    const before = Date.now();
    const paused = await post([
      ['action', 'snooze'],
      ['pause', '1m'],
    ]);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.body).toContain('These emails are paused.');
    expect(paused.body).toContain('paused until');
    expect(paused.body).toContain('Resume now');
    const snoozedUntil = Date.parse((await call('GET', `/contacts/${c.id}`)).json().data.snoozedUntil);
    expect(snoozedUntil).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(snoozedUntil).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    expect(await events(c.id, 'contact.snoozed')).toMatchObject([{ data: { source: 'preference_centre' } }]);

    // In German for a German reader; a cross-site post and an unknown length change nothing.
    await call('PATCH', `/contacts/${c.id}`, { locale: 'de' });
    const german = await m.t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
    expect(german.body).toContain('pausiert');
    expectError(await post([['action', 'resume']], { origin: 'https://evil.example' }), 403, 'FORBIDDEN');
    expectError(
      await post([
        ['action', 'snooze'],
        ['pause', '10y'],
      ]),
      400,
      'BAD_REQUEST',
    );

    const resumed = await post([['action', 'resume']]);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.body).toContain('Für 2 Wochen pausieren');
    expect((await call('GET', `/contacts/${c.id}`)).json().data.snoozedUntil).toBeNull();
    expect(await events(c.id, 'contact.unsnoozed')).toMatchObject([{ data: { source: 'preference_centre' } }]);
    // The consent ledger has both, after the contact's signup through the API.
    const ledger = (await call('GET', `/contacts/${c.id}/consent`)).json().data as {
      action: string;
      source: { type: string };
    }[];
    expect(ledger.map((e) => `${e.action} ${e.source.type}`)).toEqual([
      'subscribed api',
      'snoozed preference_centre',
      'unsnoozed preference_centre',
    ]);
  });
});

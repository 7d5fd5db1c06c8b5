// Campaign sends end to end: API → fan-out jobs → delivery jobs → SMTP sink, with the worker in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from 'mailauth';
import { simpleParser } from 'mailparser';
import { sql } from 'drizzle-orm';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

function setup(env: Record<string, string> = {}) {
  const s = {} as { m: MailFixture; auth: Auth; projectId: string };
  beforeAll(async () => {
    s.m = await startMailFixture({ env });
    const sender = await s.m.verifiedDomain('example.test');
    s.auth = sender.auth;
    s.projectId = sender.project.id;
  });
  afterAll(() => s.m.close());
  return s;
}

type ListHeaders = Record<string, { url?: string; name?: string } | undefined>;
/** mailparser's view of the List-* headers. */
const listOf = (parsed: { headers: Map<string, unknown> }) => parsed.headers.get('list') as ListHeaders;

const content = {
  subject: 'News for {{ firstName ?? "you" }}',
  body:
    '<html><body><p>Hello {{firstName}}</p><a ' +
    'href="https://example.test/post">Read</a> <a ' +
    'href="{{unsubscribeUrl}}">Unsubscribe</a></body></html>',
  from: 'news@example.test',
  fromName: 'Acme',
};

describe('campaign send', () => {
  const s = setup();
  const req = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    s.m.t.app.inject({
      method,
      url,
      headers: s.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const campaign = async (extra: Record<string, unknown> = {}) => {
    const res = await req('POST', '/campaigns', { name: 'c', audienceType: 'ALL', ...content, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const statusOf = async (id: string) => (await req('GET', `/campaigns/${id}`)).json().data.status as string;
  const stats = async (id: string) => (await req('GET', `/campaigns/${id}/stats`)).json().data;

  beforeAll(async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      email: `r${i}@dest.test`,
      defaultSubscribed: i % 10 !== 9,
      patch: { firstName: `R${i}`, n: i },
    }));
    await upsertContacts({ db: s.m.t.ctx.db, projectId: s.projectId, rows, consent: { type: 'api' } });
    await s.m.t.ctx.db.execute(
      sql`INSERT INTO suppressions (id, project_id, email, reason) VALUES (gen_random_uuid(), ${s.projectId}::uuid,
        'r0@dest.test', 'BOUNCE')`,
    );
    const other = await s.m.verifiedDomain('other.test');
    await s.m.t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: other.auth,
      payload: { email: 'stranger@dest.test' },
    });
  });

  it(
    'mails every subscribed, unsuppressed contact exactly once, as signed marketing ' + 'mail, then becomes SENT',
    async () => {
      const id = await campaign();
      expect((await req('GET', `/campaigns/${id}`)).json().data.recipientCount).toBe(26);
      expect((await req('POST', `/campaigns/${id}/send`)).statusCode).toBe(202);
      await until(async () => (await statusOf(id)) === 'SENT', 'SENT', 30_000);
      const mine = s.m.sink.messages.filter((msg) => msg.from === 'news@example.test');
      const recipients = mine.map((msg) => msg.to[0]!).sort();
      const expected = Array.from({ length: 30 }, (_, i) => i)
        .filter((i) => i !== 0 && i % 10 !== 9)
        .map((i) => `r${i}@dest.test`)
        .sort();
      expect(recipients).toEqual(expected);
      const view = (await req('GET', `/campaigns/${id}`)).json().data;
      expect(view).toMatchObject({ status: 'SENT', recipientCount: 26 });
      expect(await stats(id)).toMatchObject({ recipients: 26, sent: 26, delivered: 0, failed: 0, bounced: 0 });

      const parsed = await Promise.all(mine.map((msg) => simpleParser(msg.raw)));
      expect(new Set(parsed.map((p) => p.messageId)).size).toBe(26);
      const first = parsed.find((p) => p.to && 'value' in p.to && p.to.value[0]?.address === 'r1@dest.test')!;
      expect(first.subject).toBe('News for R1');
      expect(first.messageId).toMatch(/@example\.test>$/);
      const list = listOf(first);
      expect(list.unsubscribe?.url).toMatch(/^https:\/\/mail\.herald\.test\/unsubscribe\//);
      expect(list['unsubscribe-post']?.name).toBe('List-Unsubscribe=One-Click');
      expect(first.html).toContain(`href="${list.unsubscribe!.url}"`);
      expect(first.html).toContain('https://mail.herald.test/t/o/');
      expect(first.html).not.toContain('href="https://example.test/post"');
      const raw = mine.find((msg) => msg.to[0] === 'r1@dest.test')!.raw;
      const auth = await authenticate(raw, {
        resolver: s.m.resolve as never,
        ip: '127.0.0.1',
        helo: 'test',
        sender: 'news@example.test',
        trustReceived: false,
      });
      expect(auth.dkim.results[0]!.status.result).toBe('pass');
      const emails = (await req('GET', `/emails?sourceId=${id}&limit=100`)).json().data;
      expect(emails.total).toBe(26);
      expect(emails.items[0]).toMatchObject({ source: { type: 'CAMPAIGN', id }, status: 'SENT' });
    },
  );

  it('counts opens, clicks and unsubscribes in the stats, with rates over sent', async () => {
    const id = await campaign({
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.n', operator: 'lessThan', value: 5 },
    });
    await req('POST', `/campaigns/${id}/send`);
    await until(async () => (await statusOf(id)) === 'SENT', 'SENT', 30_000);
    const messages = await Promise.all(
      s.m.sink.messages
        .filter((msg) => msg.from === 'news@example.test')
        .slice(-4)
        .map((msg) => simpleParser(msg.raw)),
    );
    expect(messages).toHaveLength(4);
    const path = (html: string, pattern: RegExp) => pattern.exec(html)![1]!;
    const [a, b] = messages.map((p) => p.html as string);
    for (const html of [a!, b!])
      await s.m.t.app.inject({ method: 'GET', url: path(html, /https:\/\/mail\.herald\.test(\/t\/o\/[^"]+)"/) });
    await s.m.t.app.inject({ method: 'GET', url: path(a!, /https:\/\/mail\.herald\.test(\/t\/o\/[^"]+)"/) });
    expect(
      (await s.m.t.app.inject({ method: 'GET', url: path(a!, /https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"/) }))
        .statusCode,
    ).toBe(302);
    const unsubscribe = new URL(listOf(messages[2]!).unsubscribe!.url!).pathname;
    const post = await s.m.t.app.inject({
      method: 'POST',
      url: unsubscribe,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);
    // The click came within seconds of the handoff: a scanner's by the rules, so it counts in clicked, not in the rate.
    expect(await stats(id)).toEqual({
      recipients: 4,
      sent: 4,
      delivered: 0,
      opened: 2,
      humanOpened: 2,
      clicked: 1,
      humanClicked: 0,
      bounced: 0,
      complained: 0,
      unsubscribed: 1,
      failed: 0,
      suppressed: 0,
      suppressedByReason: {},
      openRate: 0.5,
      clickRate: 0,
      bounceRate: 0,
      complaintRate: 0,
    });
    // The unsubscribed contact is out of the next campaign's audience.
    const next = await campaign({
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.n', operator: 'lessThan', value: 5 },
    });
    expect((await req('GET', `/campaigns/${next}`)).json().data.recipientCount).toBe(3);
  });

  it('a scheduled campaign fires at its time; an earlier schedule that was moved does not fire', async () => {
    const id = await campaign({
      audienceType: 'FILTERED',
      audienceFilter: { field: 'email', operator: 'equals', value: 'r7@dest.test' },
    });
    const before = s.m.sink.messages.length;
    const soon = new Date(Date.now() + 1500).toISOString();
    expect((await req('POST', `/campaigns/${id}/send`, { scheduledFor: soon })).statusCode).toBe(202);
    expect(
      (await req('POST', `/campaigns/${id}/send`, { scheduledFor: new Date(Date.now() + 3_600_000).toISOString() }))
        .statusCode,
    ).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await statusOf(id)).toBe('SCHEDULED');
    expect(s.m.sink.messages.length).toBe(before);

    expect(
      (await req('POST', `/campaigns/${id}/send`, { scheduledFor: new Date(Date.now() + 1500).toISOString() }))
        .statusCode,
    ).toBe(202);
    await until(async () => (await statusOf(id)) === 'SENT', 'SENT', 20_000);
    expect(s.m.sink.messages.slice(before).map((msg) => msg.to[0])).toEqual(['r7@dest.test']);
    expect((await req('GET', `/campaigns/${id}`)).json().data.sentAt).not.toBeNull();
  });

  it('sends a subject and a layout that read variables the body does not', async () => {
    await upsertContacts({
      db: s.m.t.ctx.db,
      consent: { type: 'api' },
      projectId: s.projectId,
      rows: [{ email: 'vars@dest.test', defaultSubscribed: true, patch: { tag: 'vars', n: 7, firstName: 'Vera' } }],
    });
    const layout = await req('POST', '/layouts', {
      name: 'Footer with the address',
      format: 'html',
      body: '<div>{{ content }}</div><p>Sent to {{ email }} as {{ firstName }}</p>',
    });
    expect(layout.statusCode, layout.body).toBe(201);
    const id = await campaign({
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.tag', operator: 'equals', value: 'vars' },
      subject: 'Issue {{ n }}',
      body: '<p>Plain news</p><a href="{{unsubscribeUrl}}">Unsubscribe</a>',
      layoutId: layout.json().data.id,
    });
    await req('POST', `/campaigns/${id}/send`);
    await until(async () => (await statusOf(id)) === 'SENT', 'SENT', 30_000);
    const [email] = (await req('GET', `/emails?sourceId=${id}`)).json().data.items as { id: string }[];
    const sent = s.m.sink.messages.find((msg) => msg.raw.toString().includes(email!.id.replaceAll('-', '')))!;
    const parsed = await simpleParser(sent.raw);
    expect(parsed.subject).toBe('Issue 7');
    expect(parsed.html).toContain('Sent to vars@dest.test as Vera');
  });

  it('renders a recipient whose data breaks the template as a FAILED email, and still completes', async () => {
    await upsertContacts({
      db: s.m.t.ctx.db,
      consent: { type: 'api' },
      projectId: s.projectId,
      rows: [{ email: 'big@dest.test', defaultSubscribed: true, patch: { tag: 'big', blob: 'x'.repeat(60_000) } }],
    });
    const id = await campaign({
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.tag', operator: 'equals', value: 'big' },
      body: '<p>{% for i in (1..20) %}{{blob}}{% endfor %}</p>',
    });
    await req('POST', `/campaigns/${id}/send`);
    await until(async () => (await statusOf(id)) === 'SENT', 'SENT', 30_000);
    expect(await stats(id)).toMatchObject({ recipients: 1, sent: 0, failed: 1 });
  });

  it(
    'fails the recipients of a subject that loops instead of rendering it for half a ' +
      'second each, and still completes',
    async () => {
      await upsertContacts({
        db: s.m.t.ctx.db,
        consent: { type: 'api' },
        projectId: s.projectId,
        rows: Array.from({ length: 5 }, (_, i) => ({
          email: `loop${i}@dest.test`,
          defaultSubscribed: true,
          patch: { tag: 'loop' },
        })),
      });
      const id = await campaign({
        audienceType: 'FILTERED',
        audienceFilter: { field: 'data.tag', operator: 'equals', value: 'loop' },
        subject: '{% for i in (1..100000000) %}{% endfor %}Hello',
      });
      await req('POST', `/campaigns/${id}/send`);
      await until(async () => (await statusOf(id)) === 'SENT', 'SENT', 30_000);
      expect(await stats(id)).toMatchObject({ recipients: 5, sent: 0, failed: 5 });
      const failed = (await req('GET', `/emails?sourceId=${id}`)).json().data.items as {
        status: string;
        lastError: string;
      }[];
      expect(failed.map((e) => e.status)).toEqual(Array(5).fill('FAILED'));
      expect(failed[0]!.lastError).toMatch(/limit/i);
    },
  );

  it('renders a slow subject again with more time, while the batch has time for it', async () => {
    await upsertContacts({
      db: s.m.t.ctx.db,
      consent: { type: 'api' },
      projectId: s.projectId,
      rows: Array.from({ length: 5 }, (_, i) => ({
        email: `slow-subject${i}@dest.test`,
        defaultSubscribed: true,
        patch: { tag: 'slow-subject' },
      })),
    });
    // Over the fan-out's 20 ms for a subject on this machine, well under the delivery's 500 ms even when it is busy.
    const id = await campaign({
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.tag', operator: 'equals', value: 'slow-subject' },
      subject: '{% for i in (1..100000) %}{% endfor %}Slow news',
    });
    await req('POST', `/campaigns/${id}/send`);
    await until(async () => (await statusOf(id)) === 'SENT', 'SENT', 30_000);
    const { recipients, sent, failed } = await stats(id);
    // Each subject that ran out of its 20 ms was rendered again (2 s of second tries per batch): without that, none
    // is sent.
    expect([recipients, sent, failed]).toEqual([5, 5, 0]);
  });

  it('tries a body whose render runs out of time twice more (a busy machine can cause it), then fails it', async () => {
    await upsertContacts({
      db: s.m.t.ctx.db,
      consent: { type: 'api' },
      projectId: s.projectId,
      rows: [{ email: 'slow@dest.test', defaultSubscribed: true, patch: { tag: 'slow' } }],
    });
    const id = await campaign({
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.tag', operator: 'equals', value: 'slow' },
      body: '<p>{% for i in (1..2000) %}{% for j in (1..2000) %}{% endfor %}{% endfor %}Hello</p>',
    });
    await req('POST', `/campaigns/${id}/send`);
    const email = await until(async () => {
      const [item] = (await req('GET', `/emails?sourceId=${id}`)).json().data.items as { status: string }[];
      return item?.status === 'DEFERRED' && item;
    }, 'the first try deferred');
    expect(email).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/limit/i) });
    await until(async () => (await statusOf(id)) === 'SENT', 'SENT');
    const settled = (await req('GET', `/emails?sourceId=${id}`)).json().data.items[0];
    expect(settled).toMatchObject({ status: 'FAILED', attempts: 3 });
    expect(settled.lastError).toMatch(/limit/i);
  });
});

describe('campaign sends paced at 5 emails/s', () => {
  const s = setup({ SEND_RATE_PER_SECOND: '5' });
  const get = (url: string) => s.m.t.app.inject({ method: 'GET', url, headers: s.auth });

  it('skips a queued email whose contact unsubscribed after the fan-out', async () => {
    // 40 emails at 5/s: the worker takes 20 at a time, the rest wait in the queue for seconds.
    const rows = Array.from({ length: 40 }, (_, i) => ({
      email: `late${i}@dest.test`,
      defaultSubscribed: true,
      patch: { batch: 'late' },
    }));
    const contacts = (
      await upsertContacts({ db: s.m.t.ctx.db, projectId: s.projectId, rows, consent: { type: 'api' } })
    ).map((r) => r.contact);
    const req = (url: string, payload?: unknown) =>
      s.m.t.app.inject({ method: 'POST', url, headers: s.auth, ...(payload ? { payload: payload as object } : {}) });
    const id = (
      await req('/campaigns', {
        name: 'late',
        audienceType: 'FILTERED',
        audienceFilter: { field: 'data.batch', operator: 'equals', value: 'late' },
        ...content,
      })
    ).json().data.id as string;
    await req(`/campaigns/${id}/send`);
    await until(async () => (await get(`/emails?sourceId=${id}`)).json().data.total === 40, 'the fan-out', 30_000);
    const leaving = contacts.slice(30);
    for (const contact of leaving)
      await s.m.t.app.inject({
        method: 'PATCH',
        url: `/contacts/${contact.id}`,
        headers: s.auth,
        payload: { subscribed: false },
      });
    await until(async () => (await get(`/campaigns/${id}`)).json().data.status === 'SENT', 'SENT', 30_000);
    const emails = (await get(`/emails?sourceId=${id}&limit=100`)).json().data.items as {
      to: string;
      contactId: string;
      status: string;
      statusReason: string | null;
    }[];
    const suppressed = emails.filter((e) => e.status === 'SUPPRESSED');
    expect(suppressed.length).toBeGreaterThan(0);
    expect(
      suppressed.every((e) => e.statusReason === 'UNSUBSCRIBED' && leaving.some((c) => c.id === e.contactId)),
    ).toBe(true);
    expect(emails.filter((e) => !leaving.some((c) => c.id === e.contactId)).every((e) => e.status === 'SENT')).toBe(
      true,
    );
    const mailed = new Set(s.m.sink.messages.map((msg) => msg.to[0]));
    expect(suppressed.filter((e) => mailed.has(e.to))).toEqual([]);
    expect((await get(`/campaigns/${id}/stats`)).json().data).toMatchObject({
      recipients: 40,
      sent: 40 - suppressed.length,
    });
  });

  it('stops the send: queued emails are cancelled, nothing more goes out', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      email: `slow${i}@dest.test`,
      defaultSubscribed: true,
      patch: { batch: 'slow' },
    }));
    await upsertContacts({ db: s.m.t.ctx.db, projectId: s.projectId, rows, consent: { type: 'api' } });
    const req = (url: string, payload?: unknown) =>
      s.m.t.app.inject({ method: 'POST', url, headers: s.auth, ...(payload ? { payload: payload as object } : {}) });
    const id = (
      await req('/campaigns', {
        name: 'slow',
        audienceType: 'FILTERED',
        audienceFilter: { field: 'data.batch', operator: 'equals', value: 'slow' },
        ...content,
      })
    ).json().data.id as string;
    const before = s.m.sink.messages.length;
    await req(`/campaigns/${id}/send`);
    await until(async () => s.m.sink.messages.length >= before + 3, 'a few deliveries', 30_000);
    expect((await req(`/campaigns/${id}/cancel`)).statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const delivered = s.m.sink.messages.length - before;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(s.m.sink.messages.length - before).toBe(delivered);
    expect(delivered).toBeLessThan(40);
    const view = (await s.m.t.app.inject({ method: 'GET', url: `/campaigns/${id}`, headers: s.auth })).json().data;
    expect(view.status).toBe('CANCELLED');
    const cancelled = (
      await s.m.t.app.inject({ method: 'GET', url: `/emails?sourceId=${id}&status=CANCELLED`, headers: s.auth })
    ).json().data.total;
    const sent = (await s.m.t.app.inject({ method: 'GET', url: `/campaigns/${id}/stats`, headers: s.auth })).json().data
      .sent;
    expect(sent).toBe(delivered);
    expect(cancelled + sent).toBe(40);
  });
});

// Inbound mail: receiving domains, the listener's RCPT and size rules, the stored record and its API,
// replies linked to sent mail, two projects, the contact, event, workflow and webhook, retention. Real SMTP
// clients (nodemailer) to the real listener, a real DNS server, a real database.
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireInbound, startInboundReceiver } from '../../../src/modules/inbound/index.ts';
import type { SmtpListener } from '../../../src/net/smtp-listener.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { publishDomainRecords } from '../../support/dns-server.ts';
import { until } from '../../support/until.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

type Auth = { authorization: string };
// The API's JSON as the tests read it (checked by the OpenAPI tests, not here).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type InboundItem = Record<string, any>;

describe('inbound mail', () => {
  let m: MailFixture;
  let listener: SmtpListener;
  let hook: WebhookReceiver;
  let auth: Auth;
  let otherAuth: Auth;
  let domainId: string;

  beforeAll(async () => {
    m = await startMailFixture({
      env: { INBOUND_MAX_MB: '1', INBOUND_MX_HOST: 'mx.herald.test', WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    const first = await m.verifiedDomain('support.test');
    auth = first.auth;
    domainId = first.domainId;
    const second = await m.verifiedDomain('other.test');
    otherAuth = second.auth;
    for (const [a, id] of [
      [auth, domainId],
      [otherAuth, second.domainId],
    ] as const) {
      const res = await m.t.app.inject({
        method: 'PATCH',
        url: `/domains/${id}`,
        headers: a,
        payload: { receiving: true },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    hook = await startWebhookReceiver();
    const webhook = await m.t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: auth,
      payload: { url: hook.url, events: ['email.received'] },
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    listener = await startInboundReceiver(m.t.ctx, 0);
  });
  afterAll(async () => {
    await listener.close();
    await hook.close();
    await m.close();
  });

  const client = () =>
    nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
  const get = (url: string, a: Auth = auth) => m.t.app.inject({ method: 'GET', url, headers: a });
  const list = async (query: string, a: Auth = auth) =>
    (await get(`/inbound?${query}`, a)).json().data as { total: number; items: InboundItem[] };

  it(
    'turns receiving on only for a verified domain, with an MX record checked like ' + 'the others, and off again',
    async () => {
      const project = await m.t.createProject();
      const pending = await m.t.app.inject({
        method: 'POST',
        url: '/domains',
        headers: project.auth,
        payload: { domain: 'pending.test' },
      });
      const refused = await m.t.app.inject({
        method: 'PATCH',
        url: `/domains/${pending.json().data.id}`,
        headers: project.auth,
        payload: { receiving: true },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('CONFLICT');

      const domain = (await get(`/domains/${domainId}`)).json().data;
      expect(domain.receiving).toBe(true);
      const mx = domain.records.find((r: { purpose: string }) => r.purpose === 'INBOUND');
      expect(mx).toEqual({
        purpose: 'INBOUND',
        type: 'MX',
        name: 'support.test',
        value: '10 mx.herald.test',
        required: false,
        status: 'PENDING',
      });
      publishDomainRecords(m.dns, domain.records);
      const verified = (
        await m.t.app.inject({ method: 'POST', url: `/domains/${domainId}/verify`, headers: auth })
      ).json().data;
      expect(verified.records.find((r: { purpose: string }) => r.purpose === 'INBOUND').status).toBe('VERIFIED');
      expect(verified.status).toBe('VERIFIED');

      const bad = await m.t.app.inject({
        method: 'PATCH',
        url: `/domains/${domainId}`,
        headers: auth,
        payload: { receiving: 'yes' },
      });
      expect(bad.statusCode).toBe(422);
      expect(
        (
          await m.t.app.inject({
            method: 'PATCH',
            url: `/domains/${domainId}`,
            headers: otherAuth,
            payload: { receiving: false },
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await m.t.app.inject({ method: 'PATCH', url: '/domains/nope', headers: auth, payload: { receiving: false } }))
          .statusCode,
      ).toBe(404);

      const third = await m.verifiedDomain('third.test');
      const on = (
        await m.t.app.inject({
          method: 'PATCH',
          url: `/domains/${third.domainId}`,
          headers: third.auth,
          payload: { receiving: true },
        })
      ).json().data;
      expect(on.records.some((r: { purpose: string }) => r.purpose === 'INBOUND')).toBe(true);
      const off = (
        await m.t.app.inject({
          method: 'PATCH',
          url: `/domains/${third.domainId}`,
          headers: third.auth,
          payload: { receiving: false },
        })
      ).json().data;
      expect(off.receiving).toBe(false);
      expect(off.records.some((r: { purpose: string }) => r.purpose === 'INBOUND')).toBe(false);
      await expect(
        client().sendMail({ envelope: { from: 'a@sender.test', to: ['x@third.test'] }, raw: 'Subject: x\r\n\r\nx' }),
      ).rejects.toMatchObject({ responseCode: 550 });
    },
  );

  it(
    'stores a message as received: the record, raw bytes, attachments, the new ' + 'contact, its event and the webhook',
    async () => {
      const info = await client().sendMail({
        from: '"Ann Sender" <Ann@Sender.test>',
        to: 'Help@Support.TEST',
        cc: 'Boss <boss@sender.test>',
        subject: 'Broken widget',
        text: 'It broke.',
        html: '<p>It <b>broke</b>.</p><img src="cid:shot@x">',
        messageId: '<m1@sender.test>',
        headers: { 'X-Ticket': '42' },
        attachments: [
          { filename: 'log.txt', content: 'line 1\nline 2\n' },
          {
            filename: 'shot.png',
            content: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
            contentType: 'image/png',
            cid: 'shot@x',
          },
        ],
      });
      expect(info.response).toMatch(/^250 /);
      const { items, total } = await list('from=ann@sender.test');
      expect(total).toBe(1);
      // A list carries no bodies and no headers: they are in the message's own GET.
      expect(items[0]).not.toHaveProperty('text');
      expect(items[0]).not.toHaveProperty('html');
      expect(items[0]).not.toHaveProperty('headers');
      const record = (await get(`/inbound/${items[0]!.id}`)).json().data;
      const { text: _text, html: _html, headers: _headers, truncated, ...summary } = record;
      expect(items[0]).toEqual(summary);
      expect(truncated).toEqual({ text: false, html: false });
      expect(record).toMatchObject({
        from: { email: 'ann@sender.test', name: 'Ann Sender' },
        to: [{ email: 'help@support.test', name: '' }],
        cc: [{ email: 'boss@sender.test', name: 'Boss' }],
        recipients: ['help@support.test'],
        subject: 'Broken widget',
        text: 'It broke.',
        messageId: '<m1@sender.test>',
        inReplyTo: null,
        references: [],
        inReplyToEmailId: null,
        expired: false,
      });
      expect(record.html).toContain('cid:shot@x');
      expect(record.headers['x-ticket']).toBe('42');
      expect(Object.keys(record.authentication)).toEqual(['spf', 'dkim', 'dmarc']);
      // In the order of their MIME parts (the related image sits with the HTML, before the attached file).
      expect([...record.attachments].sort((a, b) => a.filename.localeCompare(b.filename))).toEqual([
        { id: expect.any(String), filename: 'log.txt', contentType: 'text/plain', size: 14, contentId: null },
        { id: expect.any(String), filename: 'shot.png', contentType: 'image/png', size: 4, contentId: 'shot@x' },
      ]);
      const raw = await get(`/inbound/${record.id}/raw`);
      expect(raw.statusCode).toBe(200);
      expect(raw.headers['content-type']).toMatch(/^message\/rfc822/);
      expect(raw.rawPayload.length).toBe(record.size);
      expect(raw.body).toContain('Subject: Broken widget');
      const shot = record.attachments.find((a: { filename: string }) => a.filename === 'shot.png');
      const file = await get(`/inbound/${record.id}/attachments/${shot.id}`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="shot.png"/);
      expect([...file.rawPayload]).toEqual([0x89, 0x50, 0x4e, 0x47]);

      const contact = (await get(`/contacts/${record.contactId}`)).json().data;
      expect(contact).toMatchObject({ email: 'ann@sender.test', subscribed: false });
      const events = (await get(`/events?contactId=${record.contactId}&name=email.received`)).json().data.items;
      expect(events.map((e: { data: unknown }) => e.data)).toEqual([
        { inboundId: record.id, to: ['help@support.test'], subject: 'Broken widget', inReplyToEmailId: null },
      ]);
      const [delivered] = await hook.waitFor(1);
      expect(delivered!.json).toMatchObject({
        type: 'email.received',
        data: {
          inboundId: record.id,
          from: 'ann@sender.test',
          to: ['help@support.test'],
          subject: 'Broken widget',
          inReplyToEmailId: null,
          attachments: 2,
        },
      });
    },
  );

  it(
    'refuses unknown recipients at RCPT (550 5.1.1) and messages over INBOUND_MAX_MB ' +
      'at DATA (552), storing nothing',
    async () => {
      await expect(
        client().sendMail({
          envelope: { from: 'a@sender.test', to: ['someone@elsewhere.test'] },
          raw: 'Subject: x\r\n\r\nx',
        }),
      ).rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining('5.1.1') });
      const big =
        `From: big@sender.test\r\nTo: help@support.test\r\nSubject: big\r\n\r\n` +
        `${'x'.repeat(76).concat('\r\n').repeat(15_000)}`;
      await expect(
        client().sendMail({ envelope: { from: 'big@sender.test', to: ['help@support.test'] }, raw: big }),
      ).rejects.toMatchObject({ responseCode: 552 });
      expect((await list('from=big@sender.test')).total).toBe(0);
      expect((await list('to=someone@elsewhere.test')).total).toBe(0);
    },
  );

  it("makes one record in each project when one message is for two projects' domains", async () => {
    await client().sendMail({
      from: 'both@sender.test',
      to: ['a@support.test', 'B@OTHER.test'],
      subject: 'To both',
      text: 'hi',
    });
    const mine = await list('from=both@sender.test');
    const theirs = await list('from=both@sender.test', otherAuth);
    expect([mine.total, theirs.total]).toEqual([1, 1]);
    expect(mine.items[0]!.recipients).toEqual(['a@support.test']);
    expect(theirs.items[0]!.recipients).toEqual(['b@other.test']);
    expect(theirs.items[0]!.id).not.toBe(mine.items[0]!.id);
    expect((await get(`/inbound/${mine.items[0]!.id}`, otherAuth)).statusCode).toBe(404);
    expect((await list('to=b@other.test', otherAuth)).total).toBe(1);
    expect((await list('search=TO BOTH', otherAuth)).total).toBe(1);
  });

  it('links a reply to the sent email its In-Reply-To names, for that project only', async () => {
    const sent = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: auth,
      payload: { to: 'customer@sender.test', from: 'help@support.test', subject: 'Re: ticket', body: '<p>Fixed</p>' },
    });
    const emailId = sent.json().data.emails[0].email as string;
    await m.waitForStatus(auth, emailId, ['SENT']);
    const messageId = (await get(`/emails/${emailId}`)).json().data.messageId as string;
    expect(messageId).toMatch(/^<.+@support\.test>$/);
    await client().sendMail({
      from: 'customer@sender.test',
      to: ['help@support.test', 'x@other.test'],
      subject: 'Re: Re: ticket',
      text: 'Thanks',
      inReplyTo: messageId,
      references: [messageId],
    });
    const mine = (await list('from=customer@sender.test')).items[0]!;
    expect(mine).toMatchObject({ inReplyTo: messageId, references: [messageId], inReplyToEmailId: emailId });
    expect((await list('from=customer@sender.test', otherAuth)).items[0]!.inReplyToEmailId).toBeNull();
  });

  it('starts a workflow on email.received', async () => {
    const workflow = await m.t.app.inject({
      method: 'POST',
      url: '/workflows',
      headers: auth,
      payload: {
        name: 'on reply',
        enabled: true,
        trigger: { type: 'EVENT', event: 'email.received' },
        steps: [{ type: 'UPDATE_CONTACT', data: { wroteIn: true } }],
      },
    });
    expect(workflow.statusCode, workflow.body).toBe(201);
    await client().sendMail({ from: 'flow@sender.test', to: 'help@support.test', subject: 'Hello', text: 'hi' });
    const contactId = (await list('from=flow@sender.test')).items[0]!.contactId as string;
    const contact = await until(async () => {
      const data = (await get(`/contacts/${contactId}`)).json().data;
      return data.data.wroteIn === true ? data : null;
    }, 'the workflow to update the contact');
    expect(contact.subscribed).toBe(false);
  });

  it(
    'keeps the record but deletes raw bytes and attachments after the retention ' +
      'period (410), and deletes on request',
    async () => {
      await client().sendMail({
        from: 'old@sender.test',
        to: 'help@support.test',
        subject: 'Old',
        text: 'old',
        attachments: [{ filename: 'a.txt', content: 'a' }],
      });
      await client().sendMail({ from: 'new@sender.test', to: 'help@support.test', subject: 'New', text: 'new' });
      const old = (await list('from=old@sender.test')).items[0]!;
      const recent = (await list('from=new@sender.test')).items[0]!;
      await m.t.ctx.db.execute(
        sql`UPDATE inbound_messages SET received_at = now() - interval '31 days' WHERE id = ${old.id}`,
      );
      expect(await expireInbound({ db: m.t.ctx.db, days: 30, batchSize: 1 })).toBeGreaterThanOrEqual(1);
      const expired = (await get(`/inbound/${old.id}`)).json().data;
      expect(expired).toMatchObject({
        expired: true,
        subject: 'Old',
        attachments: [{ filename: 'a.txt' }],
        text: null,
        html: null,
      });
      expect(
        await m.t.ctx.db.execute(sql`SELECT 1 FROM inbound_content WHERE inbound_id = ${old.id}`).then(rowsOf),
      ).toEqual([]);
      const raw = await get(`/inbound/${old.id}/raw`);
      expect(raw.statusCode).toBe(410);
      expect(raw.json()).toMatchObject({ success: false, error: { code: 'GONE', statusCode: 410 } });
      expect((await get(`/inbound/${old.id}/attachments/${expired.attachments[0].id}`)).statusCode).toBe(410);
      expect((await get(`/inbound/${recent.id}`)).json().data).toMatchObject({
        expired: false,
        text: expect.stringContaining('new'),
      });
      expect((await get(`/inbound/${recent.id}/raw`)).statusCode).toBe(200);

      const deleted = await m.t.app.inject({ method: 'DELETE', url: `/inbound/${recent.id}`, headers: auth });
      expect(deleted.json()).toEqual({ success: true, data: { id: recent.id, deleted: true } });
      expect((await get(`/inbound/${recent.id}`)).statusCode).toBe(404);
      expect((await m.t.app.inject({ method: 'DELETE', url: `/inbound/${recent.id}`, headers: auth })).statusCode).toBe(
        404,
      );
    },
  );

  it('answers bad requests with the error envelope', async () => {
    for (const url of [
      '/inbound/not-an-id',
      '/inbound/not-an-id/raw',
      `/inbound/${'0'.repeat(8)}-0000-7000-8000-000000000000`,
      '/inbound/not-an-id/attachments/x',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    const any = (await list('limit=1')).items[0]!;
    expect((await get(`/inbound/${any.id}/attachments/nope`)).statusCode).toBe(404);
    for (const query of ['limit=0', 'limit=101', 'cursor=garbage']) {
      const res = await get(`/inbound?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});

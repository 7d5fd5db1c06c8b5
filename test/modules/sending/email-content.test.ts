// An email as it was sent, over a transport that keeps no copy (SMTP): its content rendered again, and its
// source built again, compared with what the SMTP sink received.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from 'mailauth';
import { simpleParser } from 'mailparser';
import { sql } from 'drizzle-orm';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { expectError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

/**
 * A message split at its first blank line: the header fields (unfolded, without Date and the DKIM signature) and the
 * body bytes.
 */
function parts(raw: string) {
  const at = raw.indexOf('\r\n\r\n');
  const fields = raw
    .slice(0, at)
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n');
  return {
    headers: fields.filter((f) => !/^(date|dkim-signature):/i.test(f)),
    date: fields.find((f) => /^date:/i.test(f)),
    bh: /bh=([^;]+)/.exec(fields.find((f) => /^dkim-signature:/i.test(f)) ?? '')?.[1],
    body: raw.slice(at + 4),
  };
}

describe('GET /emails/{id}/content and /source with the SMTP transport', () => {
  let m: MailFixture;
  let auth: Auth;
  let projectId: string;
  const get = (url: string, headers: Auth = auth) => m.t.app.inject({ method: 'GET', url, headers });
  const received = (to: string) =>
    until(() => m.sink.messages.find((msg) => msg.to.includes(to)), `a message to ${to}`);

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('content.test');
    auth = sender.auth;
    projectId = sender.project.id;
  });
  afterAll(() => m.close());

  it(
    'renders a transactional email again, and rebuilds its source: the body the sink ' +
      'received, the same headers but Date',
    async () => {
      const res = await m.t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: auth,
        payload: {
          to: { name: 'Tess Reader', email: 'tess@dest.test' },
          from: { name: 'Acme', email: 'hello@content.test' },
          reply: 'help@content.test',
          subject: 'Hello {{ name }}',
          body: '<p>Hi {{ name }}, <a href="https://example.com/offer">see the offer</a></p>',
          data: { name: 'Tess' },
          headers: { 'X-Campaign-Ref': 'ref-1' },
          tracking: true,
          attachments: [
            { filename: 'note.txt', content: Buffer.from('a note').toString('base64'), contentType: 'text/plain' },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().data.emails[0].email as string;
      await m.waitForStatus(auth, id, ['SENT']);
      const sent = (await received('tess@dest.test')).raw.toString('utf8');

      const content = await get(`/emails/${id}/content`);
      expect(content.statusCode, content.body).toBe(200);
      expect(content.json().data).toEqual({
        id,
        subject: 'Hello Tess',
        from: 'hello@content.test',
        fromName: 'Acme',
        to: 'tess@dest.test',
        toName: 'Tess Reader',
        replyTo: 'help@content.test',
        html: '<p>Hi Tess, <a href="https://example.com/offer">see the offer</a></p>',
        text: expect.stringContaining('Hi Tess'),
        headers: { 'X-Campaign-Ref': 'ref-1' },
      });

      const source = await get(`/emails/${id}/source`);
      expect(source.statusCode, source.body).toBe(200);
      const data = source.json().data as { id: string; source: string; rebuilt: boolean };
      expect(data.rebuilt).toBe(true);
      const [a, b] = [parts(sent), parts(data.source)];
      expect(b.body).toBe(a.body);
      expect(b.bh).toBe(a.bh);
      expect(b.headers).toEqual(a.headers);
      const email = (await get(`/emails/${id}`)).json().data as { messageId: string; sentAt: string };
      expect(b.headers).toContain(`Message-ID: ${email.messageId}`);
      expect(new Date(b.date!.slice(5)).toISOString()).toBe(
        new Date(Math.floor(Date.parse(email.sentAt) / 1000) * 1000).toISOString(),
      );
      // The rebuilt message carries a valid signature of the sender's domain, tracking links and attachment included.
      const auth2 = await authenticate(Buffer.from(data.source), {
        trustReceived: false,
        resolver: m.resolve as never,
      });
      expect(auth2.dkim.results[0]?.status.result).toBe('pass');
      const parsed = await simpleParser(data.source);
      expect(String(parsed.html)).toContain('https://mail.herald.test/t/c/');
      expect(parsed.attachments.map((x) => x.content.toString())).toEqual(['a note']);
    },
  );

  it("renders a campaign email from its shared content and the recipient's data fixed at send time", async () => {
    await upsertContacts({
      db: m.t.ctx.db,
      consent: { type: 'api' },
      projectId,
      rows: [{ email: 'cam@dest.test', defaultSubscribed: true, patch: { firstName: 'Cam' } }],
    });
    const created = await m.t.app.inject({
      method: 'POST',
      url: '/campaigns',
      headers: auth,
      payload: {
        name: 'News',
        audienceType: 'ALL',
        subject: 'News for {{ firstName }}',
        body: '<p>Hello {{ firstName }}</p>',
        from: 'news@content.test',
      },
    });
    const campaignId = created.json().data.id as string;
    // A test send to the contact's address renders with its data, as the sink receives it.
    expect(
      (
        await m.t.app.inject({
          method: 'POST',
          url: `/campaigns/${campaignId}/test`,
          headers: auth,
          payload: { emails: ['cam@dest.test'] },
        })
      ).statusCode,
    ).toBe(200);
    const test = await simpleParser((await received('cam@dest.test')).raw);
    expect(test.subject).toBe('[TEST] News for Cam');
    expect(String(test.html)).toContain('<p>Hello Cam</p>');
    m.sink.clear();
    expect(
      (await m.t.app.inject({ method: 'POST', url: `/campaigns/${campaignId}/send`, headers: auth })).statusCode,
    ).toBe(202);
    const sent = (await received('cam@dest.test')).raw.toString('utf8');
    // The test send above has the campaign as its source too (type TEST): wait for the campaign's own email.
    const [email] = await until(async () => {
      const items = (await get(`/emails?sourceId=${campaignId}&status=SENT`)).json().data.items as {
        id: string;
        source: { type: string };
      }[];
      const own = items.filter((item) => item.source.type === 'CAMPAIGN');
      return own.length > 0 ? own : undefined;
    }, 'the campaign email SENT');
    // The contact changes later; what was sent does not.
    await upsertContacts({
      db: m.t.ctx.db,
      consent: { type: 'api' },
      projectId,
      rows: [{ email: 'cam@dest.test', defaultSubscribed: true, patch: { firstName: 'Changed' } }],
    });

    const content = (await get(`/emails/${email!.id}/content`)).json().data as { subject: string; html: string };
    expect(content.subject).toBe('News for Cam');
    expect(content.html).toContain('<p>Hello Cam</p>');
    const rebuilt = (await get(`/emails/${email!.id}/source`)).json().data.source as string;
    expect(parts(rebuilt).body).toBe(parts(sent).body);
    expect(parts(rebuilt).headers).toEqual(parts(sent).headers);

    // A SENT campaign can be deleted; its emails stay in the log, their content with them.
    await until(async () => (await get(`/campaigns/${campaignId}`)).json().data.status === 'SENT', 'the campaign SENT');
    expect(
      (await m.t.app.inject({ method: 'DELETE', url: `/campaigns/${campaignId}`, headers: auth })).statusCode,
    ).toBe(200);
    expect((await get(`/emails/${email!.id}`)).json().data).toMatchObject({
      status: 'SENT',
      source: { type: 'CAMPAIGN', id: campaignId },
    });
    expect((await get(`/emails/${email!.id}/content`)).json().data.subject).toBe('News for Cam');
  });

  it('is a 404 for another project, a bad id, and an email whose sender domain was deleted', async () => {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: auth,
      payload: { to: 'gone@dest.test', from: 'a@content.test', subject: 's', body: 'b' },
    });
    const id = res.json().data.emails[0].email as string;
    await m.waitForStatus(auth, id, ['SENT']);
    const other = await m.t.createProject('Stranger');
    for (const path of ['content', 'source']) {
      expectError(await get(`/emails/${id}/${path}`, other.auth), 404, 'NOT_FOUND');
      expectError(await get(`/emails/not-an-id/${path}`), 404, 'NOT_FOUND');
    }
    await m.t.ctx.db.execute(sql`DELETE FROM domains WHERE project_id = ${projectId}::uuid`);
    const body = expectError(await get(`/emails/${id}/source`), 404, 'NOT_FOUND');
    expect(body.error.message).toContain('a@content.test');
  });
});

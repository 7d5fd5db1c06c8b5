import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from 'mailauth';
import { simpleParser } from 'mailparser';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

describe('POST /v1/send → SMTP, end to end', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('example.test');
  });
  afterAll(() => m.close());

  const send = (payload: Record<string, unknown>, auth = sender.auth) =>
    m.t.app.inject({ method: 'POST', url: '/v1/send', headers: auth, payload });

  it('delivers a signed message that passes DKIM against the published record', async () => {
    const res = await send({
      to: { name: 'Ann Lee', email: 'Ann@Dest.test' },
      from: { name: 'Acme', email: 'hello@example.test' },
      subject: 'Hi {{name}}',
      body: '<p>Hello {{name}}, {{html}} and {{html | raw}}</p>',
      data: { name: 'Ann', html: '<b>bold</b>' },
      reply: 'support@example.test',
      headers: { 'X-Campaign': 'spring' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.emails).toHaveLength(1);
    const [item] = body.data.emails;
    expect(item.contact.email).toBe('ann@dest.test');
    const email = await m.waitForStatus(sender.auth, item.email, ['SENT']);
    expect(email).toMatchObject({
      to: 'ann@dest.test',
      from: 'hello@example.test',
      subject: 'Hi Ann',
      attempts: 1,
      source: { type: 'TRANSACTIONAL', id: null },
    });
    expect(String(email.messageId)).toMatch(/^<[^@]+@example\.test>$/);

    const [received] = m.sink.messages.filter((msg) => msg.to.includes('ann@dest.test'));
    expect(received).toBeDefined();
    const auth = await authenticate(received!.raw, {
      resolver: m.resolve as never,
      ip: '127.0.0.1',
      helo: 'test',
      sender: 'hello@example.test',
      trustReceived: false,
    });
    const dkim = auth.dkim.results[0]!;
    expect(dkim.status.result).toBe('pass');
    expect(dkim.signingDomain).toBe('example.test');

    const parsed = await simpleParser(received!.raw);
    expect(parsed.from?.value).toEqual([{ address: 'hello@example.test', name: 'Acme' }]);
    expect(parsed.messageId).toBe(email.messageId);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.replyTo?.value[0]?.address).toBe('support@example.test');
    expect(parsed.headers.get('x-campaign')).toBe('spring');
    expect(parsed.html).toContain('&lt;b&gt;bold&lt;/b&gt; and <b>bold</b>');
    expect(parsed.text).toContain('Hello Ann');
    // Transactional mail: no unsubscribe headers, no tracking unless asked.
    expect(parsed.headers.get('list')).toBeUndefined();
    expect(parsed.html).not.toContain('/t/o/');
  });

  it('creates each recipient as an unsubscribed contact with its own email id', async () => {
    const res = await send({
      to: ['a@dest.test', { email: 'b@dest.test' }, 'a@dest.test'],
      from: 'hello@example.test',
      subject: 's',
      body: 'b',
    });
    const emails = res.json().data.emails as { contact: { id: string; email: string }; email: string }[];
    expect(emails.map((e) => e.contact.email)).toEqual(['a@dest.test', 'b@dest.test']);
    expect(new Set(emails.map((e) => e.email)).size).toBe(2);
    const contact = await m.t.app.inject({
      method: 'GET',
      url: `/contacts/${emails[0]!.contact.id}`,
      headers: sender.auth,
    });
    expect(contact.json().data.subscribed).toBe(false);
    await Promise.all(emails.map((e) => m.waitForStatus(sender.auth, e.email, ['SENT'])));
  });

  it(
    'uses a template with request values overriding it, and marketing mail carries ' + 'signed one-click unsubscribe',
    async () => {
      const tpl = await m.t.app.inject({
        method: 'POST',
        url: '/templates',
        headers: sender.auth,
        payload: {
          name: 'News',
          subject: 'News for {{ name ?? "you" }}',
          body:
            '<p>Read <a href="https://example.test/post">this</a>. <a ' +
            'href="{{unsubscribeUrl}}">Unsubscribe</a> <a ' +
            'href="mailto:x@example.test">mail</a></p>',
          type: 'MARKETING',
          from: 'news@example.test',
          fromName: 'Acme News',
        },
      });
      expect(tpl.statusCode).toBe(201);
      const templateId = tpl.json().data.id;
      const res = await send({ to: 'reader@dest.test', template: templateId, subscribed: true });
      expect(res.statusCode).toBe(200);
      const emailId = res.json().data.emails[0].email;
      await m.waitForStatus(sender.auth, emailId, ['SENT']);
      const received = m.sink.messages.find((msg) => msg.to.includes('reader@dest.test'))!;
      const parsed = await simpleParser(received.raw);
      expect(parsed.subject).toBe('News for you');
      expect(parsed.from?.value[0]).toEqual({ address: 'news@example.test', name: 'Acme News' });
      const list = parsed.headers.get('list') as Record<string, { url?: string; name?: string }> | undefined;
      const unsubscribeUrl = list?.unsubscribe?.url;
      expect(unsubscribeUrl).toMatch(/^https:\/\/mail\.herald\.test\/unsubscribe\//);
      expect(list?.['unsubscribe-post']?.name).toBe('List-Unsubscribe=One-Click');
      const auth = await authenticate(received.raw, {
        resolver: m.resolve as never,
        ip: '127.0.0.1',
        helo: 'test',
        sender: 'news@example.test',
        trustReceived: false,
      });
      expect(auth.dkim.results[0]!.status.result).toBe('pass');
      const signed = String(
        (auth.dkim.results[0] as { signingHeaders?: { keys?: string } }).signingHeaders?.keys ?? '',
      ).toLowerCase();
      expect(signed).toContain('list-unsubscribe');
      expect(signed).toContain('list-unsubscribe-post');
      // Tracking on for marketing: links rewritten except unsubscribe and mailto; an open pixel added.
      expect(parsed.html).toContain('https://mail.herald.test/t/c/');
      expect(parsed.html).toContain('https://mail.herald.test/t/o/');
      expect(parsed.html).toContain('mailto:x@example.test');
      expect(parsed.html).not.toContain('href="https://example.test/post"');
      expect(parsed.html).toMatch(/href="https:\/\/mail\.herald\.test\/unsubscribe\//);

      // Unsubscribe: GET only shows a page; POST one-click unsubscribes at once, 200, no redirect.
      const path = new URL(unsubscribeUrl!).pathname;
      const page = await m.t.app.inject({ method: 'GET', url: path });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<form method="post"');
      const contactId = (
        await m.t.app.inject({ method: 'GET', url: `/emails/${emailId}`, headers: sender.auth })
      ).json().data.contactId;
      expect(
        (await m.t.app.inject({ method: 'GET', url: `/contacts/${contactId}`, headers: sender.auth })).json().data
          .subscribed,
      ).toBe(true);
      const post = await m.t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(post.statusCode).toBe(200);
      expect(post.headers.location).toBeUndefined();
      expect(
        (await m.t.app.inject({ method: 'GET', url: `/contacts/${contactId}`, headers: sender.auth })).json().data
          .subscribed,
      ).toBe(false);
      const again = await m.t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
      });
      expect(again.statusCode).toBe(200);
      const events = await m.t.app.inject({
        method: 'GET',
        url: `/events?contactId=${contactId}`,
        headers: sender.auth,
      });
      expect(events.json().data.items.map((e: { name: string }) => e.name)).toEqual(
        expect.arrayContaining(['contact.unsubscribed', 'email.sent']),
      );

      // A later marketing send to the unsubscribed contact is SUPPRESSED without any SMTP attempt.
      const later = await send({ to: 'reader@dest.test', template: templateId });
      expect(later.json().data.emails[0].status).toBe('SUPPRESSED');

      // Opens and clicks are recorded from the links in the message.
      const pixel = /https:\/\/mail\.herald\.test(\/t\/o\/[^"]+)"/.exec(parsed.html as string)![1]!;
      const open = await m.t.app.inject({ method: 'GET', url: pixel });
      expect(open.headers['content-type']).toBe('image/gif');
      expect(open.headers['cache-control']).toContain('no-store');
      const click = /https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"/.exec(parsed.html as string)![1]!;
      const redirect = await m.t.app.inject({ method: 'GET', url: click });
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toBe('https://example.test/post');
      const tampered = await m.t.app.inject({ method: 'GET', url: click.slice(0, -3) + 'xyz' });
      expect(tampered.statusCode).toBe(404);
      expect(tampered.headers.location).toBeUndefined();
      const counted = (await m.t.app.inject({ method: 'GET', url: `/emails/${emailId}`, headers: sender.auth })).json()
        .data;
      expect(counted).toMatchObject({ opens: 1, clicks: 1 });
      expect(counted.openedAt).not.toBeNull();
    },
  );

  it('retries a 451 recipient until it is accepted, and bounces and suppresses a 550 5.1.1 one', async () => {
    m.sink.failRecipient('slow@dest.test', { code: 451, message: '4.3.0 Try again later', times: 2 });
    m.sink.failRecipient('gone@dest.test', { code: 550, message: '5.1.1 No such user' });
    m.sink.failRecipient('policy@dest.test', {
      code: 550,
      message: '5.7.515 Access denied, sending domain does not meet the required authentication level',
    });
    const res = await send({
      to: ['slow@dest.test', 'gone@dest.test', 'policy@dest.test'],
      from: 'hello@example.test',
      subject: 's',
      body: 'b',
    });
    const [slow, gone, policy] = res.json().data.emails as { email: string }[];
    const delivered = await m.waitForStatus(sender.auth, slow!.email, ['SENT'], 60_000);
    expect(delivered.attempts).toBe(3);
    const bounced = await m.waitForStatus(sender.auth, gone!.email, ['BOUNCED']);
    expect(String(bounced.lastError)).toContain('5.1.1');
    await m.waitForStatus(sender.auth, policy!.email, ['BOUNCED']);

    const list = (await m.t.app.inject({ method: 'GET', url: '/suppressions', headers: sender.auth })).json().data;
    expect(list.items.map((s: { email: string }) => s.email)).toEqual(['gone@dest.test']);
    const attemptsBefore = m.sink.rcptAttempts.filter((a) => a.address === 'gone@dest.test').length;
    const next = await send({ to: 'gone@dest.test', from: 'hello@example.test', subject: 's', body: 'b' });
    expect(next.json().data.emails[0].status).toBe('SUPPRESSED');
    const policyAgain = await send({ to: 'policy@dest.test', from: 'hello@example.test', subject: 's', body: 'b' });
    expect(policyAgain.json().data.emails[0].status).toBe('QUEUED');
    await new Promise((r) => setTimeout(r, 500));
    expect(m.sink.rcptAttempts.filter((a) => a.address === 'gone@dest.test').length).toBe(attemptsBefore);
    // Removing the suppression lets mail through again.
    expect(
      (await m.t.app.inject({ method: 'DELETE', url: '/suppressions/gone@dest.test', headers: sender.auth }))
        .statusCode,
    ).toBe(200);
    expect(
      (await send({ to: 'gone@dest.test', from: 'hello@example.test', subject: 's', body: 'b' })).json().data.emails[0]
        .status,
    ).toBe('QUEUED');
  });
});

/**
 * A custom tracking host per sender domain: PATCH /domains/{id} {trackingHost} adds a TRACKING CNAME record to
 * PUBLIC_URL's host, verified through DNS like the others but not needed by the domain itself; once it is
 * verified, the links, pixel and unsubscribe links of mail from that domain use it, and Herald answers them
 * whatever the Host header says.
 */
import { request as httpRequest } from 'node:http';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkBaseFor } from '../../../src/modules/emails/index.ts';
import { expectError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

interface DomainBody {
  status: string;
  trackingHost: string | null;
  trackingVerified: boolean;
  records: {
    purpose: string;
    type: string;
    name: string;
    value: string;
    required: boolean;
    status: string;
    reason?: string | null;
  }[];
}

/** A real HTTP GET to the listening app with its own Host header (inject would not go through the socket). */
function getWithHost(
  port: number,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a custom tracking host per sender domain', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let port: number;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('track.example.test');
    await m.t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (m.t.app.server.address() as { port: number }).port;
  });
  afterAll(() => m.close());

  const patch = (payload: Record<string, unknown>) =>
    m.t.app.inject({ method: 'PATCH', url: `/domains/${sender.domainId}`, headers: sender.auth, payload });
  const verify = async () =>
    (await m.t.app.inject({ method: 'POST', url: `/domains/${sender.domainId}/verify`, headers: sender.auth })).json()
      .data as DomainBody;
  const trackingRecord = (d: DomainBody) => d.records.find((r) => r.purpose === 'TRACKING');

  /** Sends one tracked email from the domain and answers its parsed delivered message. */
  async function sendTracked(to: string) {
    const body =
      '<p><a href="https://shop.example.org/sale">sale</a> <a ' +
      'href="{{unsubscribeUrl}}">unsubscribe</a> <a ' +
      'href="{{manageUrl}}">preferences</a></p>';
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to, from: 'news@track.example.test', subject: 'Links', body, tracking: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.emails[0].email as string;
    await m.waitForStatus(sender.auth, id, ['SENT']);
    const received = m.sink.messages.find((msg) => msg.to.includes(to))!;
    return { id, html: (await simpleParser(received.raw)).html as string };
  }

  it('refuses a host outside the domain, an invalid or too long one, with a 422 naming the field', async () => {
    for (const bad of [
      'links.other.test',
      'nottrack.example.test',
      'example.test',
      'bad host!.track.example.test',
      '-x.track.example.test',
      `${'a'.repeat(64)}.track.example.test`,
      `${'a.'.repeat(130)}track.example.test`,
      '',
    ]) {
      const body = expectError(await patch({ trackingHost: bad }), 422, 'VALIDATION_ERROR');
      expect(body.error.errors?.[0]?.field, bad).toBe('trackingHost');
    }
    expectError(await patch({ trackingHost: 42 }), 422, 'VALIDATION_ERROR');
    const unchanged = (
      await m.t.app.inject({ method: 'GET', url: `/domains/${sender.domainId}`, headers: sender.auth })
    ).json().data as DomainBody;
    expect(unchanged).toMatchObject({ trackingHost: null, trackingVerified: false });
    expect(trackingRecord(unchanged)).toBeUndefined();
  });

  it("lists the CNAME to PUBLIC_URL's host; the domain itself is a valid host and null removes it", async () => {
    const own = (await patch({ trackingHost: 'Track.Example.TEST' })).json().data as DomainBody;
    expect(own.trackingHost).toBe('track.example.test');
    const removed = await patch({ trackingHost: null });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data).toMatchObject({ trackingHost: null, trackingVerified: false });
    expect(trackingRecord(removed.json().data as DomainBody)).toBeUndefined();

    const set = await patch({ trackingHost: ' Links.Track.Example.Test. ' });
    expect(set.statusCode, set.body).toBe(200);
    const d = set.json().data as DomainBody;
    expect(d).toMatchObject({ status: 'VERIFIED', trackingHost: 'links.track.example.test', trackingVerified: false });
    expect(trackingRecord(d)).toMatchObject({
      type: 'CNAME',
      name: 'links.track.example.test',
      value: 'mail.herald.test',
      required: false,
      status: 'PENDING',
    });
  });

  it(
    'sends on PUBLIC_URL until the CNAME verifies, then links, pixel and unsubscribe ' + 'links use the tracking host',
    async () => {
      // No CNAME yet: the record fails, the domain stays verified, and mail keeps PUBLIC_URL.
      const missing = await verify();
      expect(missing).toMatchObject({ status: 'VERIFIED', trackingVerified: false });
      expect(trackingRecord(missing)).toMatchObject({
        status: 'FAILED',
        reason: expect.stringContaining('links.track.example.test'),
      });
      const before = await sendTracked('before@dest.test');
      expect(before.html).toContain('https://mail.herald.test/t/c/');
      expect(before.html).not.toContain('links.track.example.test');

      m.dns.setRecords('links.track.example.test', [{ type: 'CNAME', target: 'elsewhere.example.net' }]);
      const wrong = await verify();
      expect(trackingRecord(wrong)).toMatchObject({
        status: 'FAILED',
        reason: expect.stringContaining('elsewhere.example.net'),
      });
      expect(wrong.trackingVerified).toBe(false);

      m.dns.setRecords('links.track.example.test', [{ type: 'CNAME', target: 'mail.herald.test.' }]);
      const found = await verify();
      expect(found).toMatchObject({
        status: 'VERIFIED',
        trackingHost: 'links.track.example.test',
        trackingVerified: true,
      });
      expect(trackingRecord(found)).toMatchObject({ status: 'VERIFIED', reason: null });

      const after = await sendTracked('after@dest.test');
      const html = after.html;
      expect(html).not.toContain('mail.herald.test');
      const clicks = [...html.matchAll(/href="https:\/\/links\.track\.example\.test(\/t\/c\/[^"]+)"/g)].map(
        (match) => match[1]!,
      );
      // The sale link only: the consent links (unsubscribe, preference centre) are left alone, on the tracking host.
      expect(clicks).toHaveLength(1);
      const pixel = /src="https:\/\/links\.track\.example\.test(\/t\/o\/[^"]+)"/.exec(html)![1]!;
      const unsubscribe = /href="https:\/\/links\.track\.example\.test(\/unsubscribe\/[^"]+)"/.exec(html)![1]!;
      const manage = /href="https:\/\/links\.track\.example\.test(\/manage\/[^"]+)"/.exec(html)![1]!;

      // Through a real socket with the tracking host as Host: the click redirects, the pixel and the page answer.
      const click = await getWithHost(port, clicks[0]!, 'links.track.example.test');
      expect(click.status).toBe(302);
      expect(click.headers.location).toBe('https://shop.example.org/sale');
      const preferences = await getWithHost(port, manage, 'links.track.example.test', { accept: 'text/html' });
      expect(preferences.status).toBe(200);
      const open = await getWithHost(port, pixel, 'links.track.example.test');
      expect(open.headers['content-type']).toBe('image/gif');
      const page = await getWithHost(port, unsubscribe, 'links.track.example.test', { accept: 'text/html' });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      const email = (await m.t.app.inject({ method: 'GET', url: `/emails/${after.id}`, headers: sender.auth })).json()
        .data;
      // The visit to the preference centre is no click.
      expect(email).toMatchObject({ opens: 1, clicks: 1 });

      // Nothing else depends on Host: the API answers the same under the tracking host.
      const api = await getWithHost(port, `/domains/${sender.domainId}`, 'links.track.example.test', {
        authorization: sender.auth.authorization,
      });
      expect(api.status).toBe(200);
      expect(JSON.parse(api.body).data).toMatchObject({
        trackingHost: 'links.track.example.test',
        trackingVerified: true,
      });
    },
  );

  it("puts marketing mail's List-Unsubscribe and body unsubscribe link on the verified tracking host", async () => {
    const tpl = await m.t.app.inject({
      method: 'POST',
      url: '/templates',
      headers: sender.auth,
      payload: {
        name: 'News',
        subject: 'News',
        body: '<p><a href="https://shop.example.org/new">new</a> <a href="{{unsubscribeUrl}}">Unsubscribe</a></p>',
        type: 'MARKETING',
        from: 'news@track.example.test',
      },
    });
    expect(tpl.statusCode, tpl.body).toBe(201);
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to: 'fan@dest.test', template: tpl.json().data.id, subscribed: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    await m.waitForStatus(sender.auth, res.json().data.emails[0].email as string, ['SENT']);
    const parsed = await simpleParser(m.sink.messages.find((msg) => msg.to.includes('fan@dest.test'))!.raw);
    const list = parsed.headers.get('list') as Record<string, { url?: string }> | undefined;
    const url = list?.unsubscribe?.url;
    expect(url).toMatch(/^https:\/\/links\.track\.example\.test\/unsubscribe\/[^/]+$/);
    expect(parsed.html).toContain(`href="${url!}"`);
    expect(parsed.html).toMatch(/src="https:\/\/links\.track\.example\.test\/t\/o\//);
    expect(parsed.html).not.toContain('mail.herald.test');
    const post = await m.t.app.inject({
      method: 'POST',
      url: new URL(url!).pathname,
      headers: { host: 'links.track.example.test', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode, post.body).toBe(200);
    const contact = (
      await m.t.app.inject({ method: 'GET', url: '/contacts?email=fan@dest.test', headers: sender.auth })
    ).json().data.items[0];
    expect(contact.subscribed).toBe(false);
  });

  it("keeps PUBLIC_URL's scheme for the tracking host (http in local setups)", () => {
    const records = [
      {
        purpose: 'TRACKING' as const,
        type: 'CNAME' as const,
        name: 'links.track.example.test',
        value: 'localhost',
        required: false,
        status: 'VERIFIED' as const,
      },
    ];
    expect(
      linkBaseFor({ ...m.t.ctx, config: { ...m.t.ctx.config, publicUrl: 'http://localhost:3000' } }, { records }),
    ).toBe('http://links.track.example.test');
    expect(linkBaseFor(m.t.ctx, { records })).toBe('https://links.track.example.test');
    expect(linkBaseFor(m.t.ctx, { records: [{ ...records[0]!, status: 'PENDING' }] })).toBe('https://mail.herald.test');
  });
});

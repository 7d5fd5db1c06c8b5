// The blocklist watch against a real DNS server playing the blocklists: a sender domain, its tracking host and the
// sending IPs (IPv4 and IPv6) looked up on demand, when the domain is verified and by the hourly job; webhooks when a
// name becomes listed or is delisted, never for a lookup that failed or a refused query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { until } from '../../support/until.ts';
import { dnsblQueryName } from '../../../src/net/dnsbl.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { sql } from 'drizzle-orm';

const DBL = 'dbl.lists.test';
const ZEN = 'zen.lists.test';

interface Entry {
  zone: string;
  name: string;
  kind: string;
  listed: boolean | null;
  answer: string | null;
  listedSince: string | null;
}

describe('the blocklist watch', () => {
  let m: MailFixture;
  let hook: WebhookReceiver;
  let domain: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    m.t.app.inject({
      method,
      url,
      headers: domain.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const checkNow = async () => {
    const res = await req('POST', `/domains/${domain.domainId}/blocklists/check`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Entry[];
  };
  const entry = (entries: Entry[], zone: string, name: string) =>
    entries.find((e) => e.zone === zone && e.name === name)!;
  const hooks = (type: string) => hook.received.filter((w) => w.json.type === type);

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    m = await startMailFixture({
      env: {
        DNSBL_DOMAIN_ZONES: DBL,
        DNSBL_IP_ZONES: ZEN,
        SENDING_IPS: '192.0.2.10, 2001:db8::1',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    });
    const project = await m.t.createProject();
    const hooked = await m.t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: project.auth,
      payload: { url: hook.url, events: ['domain.blocklisted', 'domain.delisted'] },
    });
    expect(hooked.statusCode, hooked.body).toBe(201);
    // Listed before it is verified: the lookup that verification starts finds it.
    m.dns.setRecords(`watched.test.${DBL}`, [{ type: 'A', address: '127.0.1.2' }]);
    domain = await m.verifiedDomain('watched.test', project);
  });
  afterAll(async () => {
    await m.close();
    await hook.close();
  });

  it('looks a newly verified domain up at once and raises domain.blocklisted for what it finds', async () => {
    const [listed] = await hook.waitFor(1, 30_000, (w) => w.json.type === 'domain.blocklisted');
    expect(listed!.json.data).toMatchObject({
      domainId: domain.domainId,
      domain: 'watched.test',
      zone: DBL,
      name: 'watched.test',
      answer: '127.0.1.2',
    });
    const entries = (await req('GET', `/domains/${domain.domainId}/blocklists`)).json().data as Entry[];
    expect(entries.map((e) => `${e.kind} ${e.zone} ${e.name} ${e.listed}`)).toEqual([
      `domain ${DBL} watched.test true`,
      `ip ${ZEN} 192.0.2.10 false`,
      `ip ${ZEN} 2001:db8::1 false`,
    ]);
    expect((await req('GET', `/domains/${domain.domainId}`)).json().data.blocklisted).toEqual([
      `watched.test on ${DBL}`,
    ]);
  });

  it('looks the sending IPs up reversed, IPv6 by nibbles, and the tracking host beside the domain', async () => {
    expect(dnsblQueryName('192.0.2.10')).toBe('10.2.0.192');
    expect(dnsblQueryName('2001:db8::1')).toBe(`1.${'0.'.repeat(23)}8.b.d.0.1.0.0.2`);
    m.dns.setRecords(`10.2.0.192.${ZEN}`, [{ type: 'A', address: '127.0.0.2' }]);
    const patched = await req('PATCH', `/domains/${domain.domainId}`, { trackingHost: 'links.watched.test' });
    expect(patched.statusCode, patched.body).toBe(200);
    const entries = await checkNow();
    expect(entry(entries, ZEN, '192.0.2.10')).toMatchObject({ kind: 'ip', listed: true, answer: '127.0.0.2' });
    expect(entry(entries, DBL, 'links.watched.test')).toMatchObject({ kind: 'domain', listed: false });
    await until(() => hooks('domain.blocklisted').length === 2, 'the IP listing raised');
    expect(hooks('domain.blocklisted')[1]!.json.data).toMatchObject({ name: '192.0.2.10', zone: ZEN });
  });

  it('says a refused query or a lookup that fails is unknown, and neither raises nor clears a listing', async () => {
    m.dns.setRecords(`watched.test.${DBL}`, [{ type: 'A', address: '127.255.255.254' }]);
    m.dns.silence(`10.2.0.192.${ZEN}`);
    try {
      const entries = await checkNow();
      expect(entry(entries, DBL, 'watched.test')).toMatchObject({ listed: null, answer: '127.255.255.254' });
      expect(entry(entries, ZEN, '192.0.2.10')).toMatchObject({ listed: null, answer: null });
      expect(entry(entries, ZEN, '192.0.2.10').listedSince).not.toBeNull();
    } finally {
      m.dns.unsilence(`10.2.0.192.${ZEN}`);
    }
    // Listed again: not a new listing, so no second webhook.
    m.dns.setRecords(`watched.test.${DBL}`, [{ type: 'A', address: '127.0.1.2' }]);
    await checkNow();
    expect(hooks('domain.blocklisted')).toHaveLength(2);
    expect(hooks('domain.delisted')).toHaveLength(0);
  });

  it('raises domain.delisted once when a listing is gone, and the hourly job finds the same', async () => {
    m.dns.setRecords(`watched.test.${DBL}`, []);
    const entries = await checkNow();
    expect(entry(entries, DBL, 'watched.test')).toMatchObject({ listed: false, listedSince: null });
    const [delisted] = await hook.waitFor(1, 30_000, (w) => w.json.type === 'domain.delisted');
    expect(delisted!.json.data).toMatchObject({ name: 'watched.test', zone: DBL });
    // The job looks every verified domain up: the IP is delisted too, and nothing repeats.
    m.dns.setRecords(`10.2.0.192.${ZEN}`, []);
    const { blocklistsJob } = await import('../../../src/modules/domains/domains.blocklists.ts');
    await m.t.ctx.queue.enqueue(blocklistsJob, {});
    await until(() => hooks('domain.delisted').length === 2, 'the job delisted the IP', 30_000);
    expect((await req('GET', `/domains/${domain.domainId}`)).json().data.blocklisted).toEqual([]);
    await checkNow();
    expect(hooks('domain.delisted')).toHaveLength(2);
  });

  it('queues the start-up run once an hour, however many workers start', async () => {
    const { blocklistsAtStart, startRunId } = await import('../../../src/modules/domains/domains.blocklists.ts');
    // This process's poller asked already when it started; two more workers starting ask again.
    await blocklistsAtStart.run(m.t.ctx);
    await blocklistsAtStart.run(m.t.ctx);
    const id = startRunId(new Date());
    const result = await m.t.ctx.db.execute(
      sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'domains-blocklists' AND id = ${id}::uuid`,
    );
    expect(rowsOf<{ n: number }>(result)[0]!.n).toBe(1);
  });

  it('asks no blocklist about a .localhost domain, only about the sending IPs', async () => {
    const { addLocalSenderDomain } = await import('../../../src/modules/domains/index.ts');
    const other = await m.t.createProject();
    const local = await addLocalSenderDomain({ ctx: m.t.ctx, projectId: other.id });
    m.dns.resetQueries();
    const res = await m.t.app.inject({
      method: 'POST',
      url: `/domains/${local.id}/blocklists/check`,
      headers: other.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().data as Entry[]).map((e) => e.kind)).toEqual(['ip', 'ip']);
    expect(m.dns.queryCount(`herald.localhost.${DBL}`)).toBe(0);
  });

  it('answers 404 for a domain that is not the project’s', async () => {
    const other = await m.t.createProject();
    const res = await m.t.app.inject({
      method: 'POST',
      url: `/domains/${domain.domainId}/blocklists/check`,
      headers: other.auth,
    });
    expect(res.statusCode).toBe(404);
    expect((await req('GET', '/domains/not-an-id/blocklists')).statusCode).toBe(404);
  });
});

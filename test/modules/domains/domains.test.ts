import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../../src/db/rows.ts';
import { checkDomainsJob } from '../../../src/modules/domains/domains.jobs.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { publishDomainRecords } from '../../support/dns-server.ts';

interface DomainBody {
  id: string;
  domain: string;
  status: string;
  verifiedAt: string | null;
  records: {
    purpose: string;
    type: string;
    name: string;
    value: string;
    values?: string[];
    required: boolean;
    status: string;
  }[];
}

describe('sender domains', () => {
  let m: MailFixture;
  let project: Awaited<ReturnType<MailFixture['t']['createProject']>>;

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
    project = await m.t.createProject('Domains');
    const hook = await m.t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: project.auth,
      payload: { url: 'https://hooks.example.test/in', events: ['domain.verified', 'domain.failed'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(() => m.close());

  const add = (domain: string, auth = project.auth) =>
    m.t.app.inject({ method: 'POST', url: '/domains', headers: auth, payload: { domain } });
  const verify = (id: string, auth = project.auth) =>
    m.t.app.inject({ method: 'POST', url: `/domains/${id}/verify`, headers: auth });
  const publish = (d: DomainBody) => {
    publishDomainRecords(m.dns, d.records);
  };
  const runCheckJob = () => checkDomainsJob.handler({}, m.t.ctx, { id: 'manual', retryCount: 0, retryLimit: 0 });

  it('generates a 2048-bit DKIM key and answers the records to publish, never the private key', async () => {
    const res = await add('  Mail.Example.TEST. ');
    expect(res.statusCode).toBe(201);
    const d = res.json().data as DomainBody;
    expect(d).toMatchObject({ domain: 'mail.example.test', status: 'PENDING', verifiedAt: null });
    const dkim = d.records.find((r) => r.purpose === 'DKIM')!;
    expect(dkim).toMatchObject({ type: 'TXT', required: true, status: 'PENDING' });
    expect(dkim.name).toMatch(/^[a-z0-9]+\._domainkey\.mail\.example\.test$/);
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]+$/);
    // A 2048-bit key's record is longer than one TXT string: it is also given split.
    expect(dkim.values!.length).toBeGreaterThan(1);
    expect(dkim.values!.every((s) => s.length <= 255)).toBe(true);
    expect(dkim.values!.join('')).toBe(dkim.value);
    const publicKey = Buffer.from(dkim.value.split('p=')[1]!, 'base64');
    expect(publicKey.length).toBeGreaterThan(290); // SPKI DER of RSA-2048
    expect(d.records.find((r) => r.purpose === 'SPF')).toMatchObject({
      type: 'TXT',
      name: 'mail.example.test',
      required: false,
    });
    expect(d.records.find((r) => r.purpose === 'DMARC')).toMatchObject({
      type: 'TXT',
      name: '_dmarc.mail.example.test',
      required: false,
    });
    expect(res.body).not.toMatch(/PRIVATE|v1\./);
  });

  it('refuses bad names (422) and a second copy in the project (409)', async () => {
    for (const bad of ['not a domain', 'localhost', '-x.example', 'a..b', '1.2.3.4', 'x'.repeat(64) + '.com']) {
      expect((await add(bad)).statusCode, bad).toBe(422);
    }
    expect((await add('dup.example.test')).statusCode).toBe(201);
    expect((await add('DUP.example.test')).statusCode).toBe(409);
  });

  it('answers 201 and 409 to two parallel adds of one domain (the unique index decides, never a 500)', async () => {
    const results = await Promise.all([add('race.example.test'), add('race.example.test')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it(
    'stays PENDING until the DKIM record is published, then verifies; a verified ' +
      'domain is not another project’s to add',
    async () => {
      const d = (await add('verify.example.test')).json().data as DomainBody;
      const early = (await verify(d.id)).json().data as DomainBody;
      expect(early.status).toBe('PENDING');
      expect(early.records.find((r) => r.purpose === 'DKIM')!.status).toBe('FAILED');
      publish(d);
      const done = (await verify(d.id)).json().data as DomainBody;
      expect(done.status).toBe('VERIFIED');
      expect(done.verifiedAt).not.toBeNull();
      expect(done.records.find((r) => r.purpose === 'DKIM')!.status).toBe('VERIFIED');
      expect(done.records.find((r) => r.purpose === 'SPF')!.status).toBe('VERIFIED');

      const other = await m.t.createProject('Other');
      const taken = await add('verify.example.test', other.auth);
      expect(taken.statusCode).toBe(409);
      // Lists filter by status; another project's id is a 404 like a random one.
      const verified = (
        await m.t.app.inject({ method: 'GET', url: '/domains?status=VERIFIED', headers: project.auth })
      ).json().data;
      expect(verified.items.map((x: DomainBody) => x.domain)).toEqual(['verify.example.test']);
      expect((await m.t.app.inject({ method: 'GET', url: `/domains/${d.id}`, headers: other.auth })).statusCode).toBe(
        404,
      );
      expect((await verify(d.id, other.auth)).statusCode).toBe(404);
      expect(
        (await m.t.app.inject({ method: 'DELETE', url: `/domains/${d.id}`, headers: other.auth })).statusCode,
      ).toBe(404);
    },
  );

  it(
    'marks a verified domain TEMPORARY_FAILURE when its record vanishes, and a ' + 'pending one FAILED after 72 h',
    async () => {
      const d = (await add('vanish.example.test')).json().data as DomainBody;
      publish(d);
      expect((await verify(d.id)).json().data.status).toBe('VERIFIED');
      const pending = (await add('never.example.test')).json().data as DomainBody;
      m.dns.setRecords(d.records.find((r) => r.purpose === 'DKIM')!.name, []);
      await m.t.ctx.db.execute(sql`UPDATE domains SET last_checked_at = now() - interval '2 days' WHERE id = ${d.id}`);
      await m.t.ctx.db.execute(
        sql`UPDATE domains SET created_at = now() - interval '73 hours', last_checked_at = NULL WHERE id =
          ${pending.id}`,
      );
      await runCheckJob();
      const get = async (id: string) =>
        (await m.t.app.inject({ method: 'GET', url: `/domains/${id}`, headers: project.auth })).json()
          .data as DomainBody;
      expect((await get(d.id)).status).toBe('TEMPORARY_FAILURE');
      expect((await get(pending.id)).status).toBe('FAILED');
      // Webhooks: verified once, then failed (the lapse), with the record that went missing.
      const events = rowsOf<{ event_type: string; payload: { data: Record<string, unknown> } }>(
        await m.t.ctx.db.execute(sql`
      SELECT event_type, payload FROM webhook_deliveries WHERE payload->'data'->>'domainId' = ${d.id} ORDER BY
        created_at, id`),
      );
      expect(events.map((e) => e.event_type)).toEqual(['domain.verified', 'domain.failed']);
      expect(events[1]!.payload.data).toMatchObject({
        domain: 'vanish.example.test',
        status: 'TEMPORARY_FAILURE',
        records: [{ type: 'TXT', name: d.records.find((r) => r.purpose === 'DKIM')!.name }],
      });
      publish(d);
      expect((await verify(d.id)).json().data.status).toBe('VERIFIED');
    },
  );

  it('keeps a domain as it was when DNS does not answer', async () => {
    const d = (await add('quiet.example.test')).json().data as DomainBody;
    publish(d);
    expect((await verify(d.id)).json().data.status).toBe('VERIFIED');
    m.dns.silence('quiet.example.test');
    const res = await verify(d.id);
    expect(res.json().data.status).toBe('VERIFIED');
    m.dns.unsilence('quiet.example.test');
  });

  it('deletes a domain', async () => {
    const d = (await add('gone.example.test')).json().data as DomainBody;
    expect((await m.t.app.inject({ method: 'DELETE', url: `/domains/${d.id}`, headers: project.auth })).json()).toEqual(
      { success: true, data: { id: d.id, deleted: true } },
    );
    expect((await m.t.app.inject({ method: 'GET', url: `/domains/${d.id}`, headers: project.auth })).statusCode).toBe(
      404,
    );
  });
});

// DMARC aggregate and TLS reports delivered over SMTP to the running inbound listener, as receivers send them: an XML
// attachment, .xml.gz, .zip, a TLS report .json.gz; the summaries they make. Hostile reports are refused and counted
// (never expanded past the limit), a report about another domain is stored nowhere, a duplicate is stored once, a
// 100,000-record report is kept aggregated within the row cap, an unknown token is refused at RCPT.
import { gzipSync } from 'node:zlib';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboundReceiver } from '../../../src/modules/inbound/index.ts';
import { MAX_SOURCE_ROWS } from '../../../src/mail/receive-pool/report-files.ts';
import { expireReports } from '../../../src/modules/domains/domains.reports.ts';
import { dmarcReportRows, dmarcReports } from '../../../src/db/schema/index.ts';
import type { SmtpListener } from '../../../src/net/smtp-listener.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { dmarcXml, entityXml, gzipOfZeros, tlsJson, zipOf } from '../../support/report-files.ts';
import { eq, sql } from 'drizzle-orm';

const MX = 'reports.herald.test';

interface Rec {
  purpose: string;
  type: string;
  name: string;
  value: string;
  required: boolean;
}

describe('DMARC and TLS reports', () => {
  let m: MailFixture;
  let listener: SmtpListener;
  let brand: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let other: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let token: string;

  const patch = (d: typeof brand, payload: object) =>
    m.t.app.inject({ method: 'PATCH', url: `/domains/${d.domainId}`, headers: d.auth, payload });
  const get = async (d: typeof brand, path: string) => {
    const res = await m.t.app.inject({ method: 'GET', url: `/domains/${d.domainId}${path}`, headers: d.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const period = '?from=2026-11-01T00:00:00Z&to=2026-12-31T00:00:00Z';
  const send = (to: string, attachments: { filename: string; content: Buffer | string }[]) =>
    nodemailer
      .createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true })
      .sendMail({ from: 'noreply-dmarc-support@google.com', to, subject: 'Report domain: brand.test', attachments });
  const refusedWith = async (promise: Promise<unknown>) => {
    const error = (await promise.then(
      () => null,
      (e: unknown) => e,
    )) as { responseCode?: number; response?: string } | null;
    expect(error, 'the report was refused').not.toBeNull();
    return { code: error!.responseCode, response: String(error!.response) };
  };
  const metric = async (outcome: string) => {
    const values = (await m.t.ctx.metrics.getSingleMetric('herald_reports_total')?.get())?.values ?? [];
    return values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  };

  beforeAll(async () => {
    m = await startMailFixture({
      env: { INBOUND_MX_HOST: MX, SENDING_IPS: '192.0.2.10', DMARC_RUA: 'dmarc@ops.test', INBOUND_MAX_MB: '40' },
    });
    listener = await startInboundReceiver(m.t.ctx, 0);
    brand = await m.verifiedDomain('brand.test');
    other = await m.verifiedDomain('other.test');
    for (const d of [brand, other]) expect((await patch(d, { dmarcReports: true })).statusCode).toBe(200);
    const records = (await get(brand, '')).records as Rec[];
    token = /dmarc-([0-9a-f]{32})@/.exec(records.find((r) => r.purpose === 'DMARC')!.value)![1]!;
  });
  afterAll(async () => {
    await listener.close();
    await m.close();
  });

  it('PATCH dmarcReports advises our rua beside the configured one and two records; off removes them', async () => {
    const on = (await get(brand, '')) as { records: Rec[]; dmarcReports: boolean; status: string };
    expect(on.dmarcReports).toBe(true);
    const by = (purpose: string) => on.records.find((r) => r.purpose === purpose);
    expect(by('DMARC')!.value).toBe(`v=DMARC1; p=none; rua=mailto:dmarc@ops.test,mailto:dmarc-${token}@${MX}`);
    expect(by('DMARC_REPORTS')).toMatchObject({
      type: 'TXT',
      name: `brand.test._report._dmarc.${MX}`,
      value: 'v=DMARC1',
      required: false,
    });
    expect(by('TLS_REPORTS')).toMatchObject({
      type: 'TXT',
      name: '_smtp._tls.brand.test',
      value: `v=TLSRPTv1; rua=mailto:tls-${token}@${MX}`,
      required: false,
    });
    // Advised, not required: the domain stays verified with none of them published.
    const verified = await m.t.app.inject({
      method: 'POST',
      url: `/domains/${brand.domainId}/verify`,
      headers: brand.auth,
    });
    expect(verified.json().data.status).toBe('VERIFIED');

    const off = (await patch(brand, { dmarcReports: false })).json().data as { records: Rec[]; dmarcReports: boolean };
    expect(off.dmarcReports).toBe(false);
    expect(off.records.map((r) => r.purpose)).not.toContain('DMARC_REPORTS');
    expect(off.records.map((r) => r.purpose)).not.toContain('TLS_REPORTS');
    expect(off.records.find((r) => r.purpose === 'DMARC')!.value).toBe('v=DMARC1; p=none; rua=mailto:dmarc@ops.test');
    // Turned on again: the same token, so addresses published before still work.
    const again = (await patch(brand, { dmarcReports: true })).json().data as { records: Rec[] };
    expect(again.records.find((r) => r.purpose === 'DMARC')!.value).toContain(`dmarc-${token}@${MX}`);

    const audit = await m.t.app.inject({ method: 'GET', url: '/audit-log?action=domain.updated', headers: brand.auth });
    const changes = (audit.json().data.items as { changes: Record<string, unknown> }[]).map((e) => e.changes);
    expect(changes).toContainEqual(expect.objectContaining({ dmarcReports: [true, false] }));
  });

  it('a viewer reads the summaries; a bad period is a 422', async () => {
    const bad = await m.t.app.inject({
      method: 'GET',
      url: `/domains/${brand.domainId}/dmarc?from=yesterday`,
      headers: brand.auth,
    });
    expect(bad.statusCode).toBe(422);
    const year0 = await m.t.app.inject({
      method: 'GET',
      url: `/domains/${brand.domainId}/tls-reports?to=0000-01-01T00:00:00Z`,
      headers: brand.auth,
    });
    expect(year0.statusCode).toBe(422);
    const foreign = await m.t.app.inject({
      method: 'GET',
      url: `/domains/${brand.domainId}/dmarc`,
      headers: other.auth,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('stores reports as XML, .xml.gz, .zip and a TLS .json.gz; failures not ours come first', async () => {
    const address = `dmarc-${token}@${MX}`;
    await send(address, [
      {
        filename: 'google.com!brand.test!1.xml',
        content: dmarcXml({
          domain: 'brand.test',
          reportId: 'xml-1',
          records: [
            { ip: '192.0.2.10', count: 40, dkim: 'pass', spf: 'pass', dkimDomain: 'brand.test' },
            { ip: '198.51.100.7', count: 5, disposition: 'none' },
          ],
        }),
      },
    ]);
    await send(address, [
      {
        filename: 'report.xml.gz',
        content: gzipSync(
          dmarcXml({
            domain: 'brand.test',
            reportId: 'gz-1',
            org: 'Yahoo',
            begin: Date.UTC(2026, 10, 21) / 1000,
            records: [
              // Ours by its DKIM (d=brand.test) though not from a sending IP, then a forwarder that broke it.
              { ip: '203.0.113.5', count: 10, dkim: 'pass', dkimDomain: 'brand.test' },
              { ip: '203.0.113.9', count: 3, dkim: 'fail', dkimDomain: 'brand.test' },
            ],
          }),
        ),
      },
    ]);
    await send(address, [
      {
        filename: 'report.zip',
        content: zipOf([
          {
            name: 'brand.test!zip-1.xml',
            content: Buffer.from(
              dmarcXml({
                domain: 'brand.test',
                reportId: 'zip-1',
                org: 'Microsoft',
                records: [{ ip: '192.0.2.10', count: 2, spf: 'pass' }],
              }),
            ),
          },
        ]),
      },
    ]);
    await send(`tls-${token}@${MX}`, [
      {
        filename: 'company-x!brand.test!1.json.gz',
        content: gzipSync(tlsJson({ domain: 'brand.test', reportId: 'tls-1', successful: 1000, failed: 7 })),
      },
    ]);

    const summary = await get(brand, `/dmarc${period}`);
    expect(summary).toMatchObject({ reports: 3, messages: 60 });
    expect(summary.passRate).toBeCloseTo(52 / 60);
    expect(summary.days).toEqual([
      { date: '2026-11-20', messages: 47, passed: 42 },
      { date: '2026-11-21', messages: 13, passed: 10 },
    ]);
    expect(summary.sources[0]).toEqual({
      ip: '198.51.100.7',
      count: 5,
      dkim: 'fail',
      spf: 'fail',
      disposition: 'none',
      ours: false,
    });
    const source = (ip: string) => summary.sources.find((s: { ip: string }) => s.ip === ip);
    expect(source('203.0.113.5').ours).toBe(true);
    expect(source('203.0.113.9').ours).toBe(false);
    expect(summary.sources.filter((s: { ip: string }) => s.ip === '192.0.2.10')).toHaveLength(2);
    expect(
      summary.sources.filter((s: { ip: string }) => s.ip === '192.0.2.10').every((s: { ours: boolean }) => s.ours),
    ).toBe(true);
    expect(summary.organisations.map((o: { name: string }) => o.name).sort()).toEqual([
      'Microsoft',
      'Yahoo',
      'google.com',
    ]);

    const tls = await get(brand, `/tls-reports${period}`);
    expect(tls).toHaveLength(1);
    expect(tls[0]).toMatchObject({
      organisation: 'Company-X',
      reportId: 'tls-1',
      startAt: '2026-11-20T00:00:00.000Z',
      successful: 1000,
      failed: 7,
      policies: [
        {
          policyType: 'sts',
          policyDomain: 'brand.test',
          failures: [{ resultType: 'certificate-expired', failedSessions: 7, receivingMxHostname: 'mx.brand.test' }],
        },
      ],
    });
  });

  it('stores the same report (organisation and report id) once', async () => {
    const report = dmarcXml({ domain: 'brand.test', reportId: 'dup-1', records: [{ ip: '192.0.2.10', count: 1 }] });
    await send(`dmarc-${token}@${MX}`, [{ filename: 'a.xml', content: report }]);
    await send(`dmarc-${token}@${MX}`, [{ filename: 'a.xml.gz', content: gzipSync(report) }]);
    const rows = await m.t.ctx.db
      .select({ id: dmarcReports.id })
      .from(dmarcReports)
      .where(eq(dmarcReports.reportId, 'dup-1'));
    expect(rows).toHaveLength(1);
    expect(await metric('duplicate')).toBeGreaterThanOrEqual(1);
  });

  it('refuses and counts hostile files: not XML, entities, a gzip bomb, many or escaping zip entries', async () => {
    const address = `dmarc-${token}@${MX}`;
    const before = (await get(brand, `/dmarc${period}`)) as { reports: number };
    const cases: [string, { filename: string; content: Buffer | string }, string][] = [
      ['not_a_report', { filename: 'report.xml', content: '<feedback><oops' }, '554'],
      ['not_a_report', { filename: 'report.xml.gz', content: gzipSync('just text, not a report') }, '554'],
      ['entities', { filename: 'report.xml', content: entityXml.external }, '554'],
      ['entities', { filename: 'report.xml', content: entityXml.billionLaughs }, '554'],
      ['too_large', { filename: 'report.xml.gz', content: await gzipOfZeros(1024) }, '554'],
      [
        'too_many_files',
        {
          filename: 'report.zip',
          content: zipOf(Array.from({ length: 1000 }, (_, i) => ({ name: `r${i}.xml`, content: Buffer.from('<a/>') }))),
        },
        '554',
      ],
      [
        'unsafe_name',
        { filename: 'report.zip', content: zipOf([{ name: '../../etc/cron.d/x.xml', content: Buffer.from('<a/>') }]) },
        '554',
      ],
      [
        'too_large',
        { filename: 'report.zip', content: zipOf([{ name: 'big.xml', content: Buffer.alloc(11 * 1024 * 1024, 32) }]) },
        '554',
      ],
    ];
    for (const [reason, file, code] of cases) {
      const refused = await refusedWith(send(address, [file]));
      expect(String(refused.code), `${reason}: ${refused.response}`).toBe(code);
    }
    const after = (await get(brand, `/dmarc${period}`)) as { reports: number; refused: Record<string, number> };
    expect(after.reports).toBe(before.reports);
    expect(after.refused).toMatchObject({
      not_a_report: 2,
      entities: 2,
      too_large: 2,
      too_many_files: 1,
      unsafe_name: 1,
    });
    expect(await metric('too_large')).toBe(2);
  });

  it("stores nowhere a report about another project's domain or no project's, and counts it", async () => {
    const address = `dmarc-${token}@${MX}`;
    for (const domain of ['other.test', 'nobody.test']) {
      const refused = await refusedWith(
        send(address, [
          {
            filename: 'r.xml',
            content: dmarcXml({ domain, reportId: `foreign-${domain}`, records: [{ ip: '192.0.2.1', count: 9 }] }),
          },
        ]),
      );
      expect(refused.code).toBe(550);
    }
    const tls = await refusedWith(
      send(`tls-${token}@${MX}`, [
        { filename: 't.json', content: tlsJson({ domain: 'other.test', reportId: 'x', successful: 1, failed: 0 }) },
      ]),
    );
    expect(tls.code).toBe(550);
    const stored = await m.t.ctx.db
      .select({ id: dmarcReports.id })
      .from(dmarcReports)
      .where(sql`${dmarcReports.reportId} LIKE 'foreign-%'`);
    expect(stored).toHaveLength(0);
    expect((await get(brand, `/dmarc${period}`)).refused.wrong_domain).toBe(3);
    expect((await get(other, `/dmarc${period}`)).reports).toBe(0);
  });

  it('refuses an unknown token at RCPT and counts it', async () => {
    const before = await metric('unknown_token');
    const refused = await refusedWith(
      send(`dmarc-${'0'.repeat(32)}@${MX}`, [
        { filename: 'r.xml', content: dmarcXml({ domain: 'brand.test', reportId: 'u', records: [] }) },
      ]),
    );
    expect(refused.code).toBe(550);
    expect(refused.response).toMatch(/report address/);
    expect(await metric('unknown_token')).toBe(before + 1);
  });

  it('keeps a 100,000-record report aggregated within the row cap, its totals whole', async () => {
    const records = Array.from({ length: 100_000 }, (_, i) => ({
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      count: i < 100 ? 1000 : 1,
      dkim: i % 2 === 0 ? ('pass' as const) : ('fail' as const),
    }));
    await send(`dmarc-${token}@${MX}`, [
      { filename: 'big.xml', content: dmarcXml({ domain: 'brand.test', reportId: 'big-1', org: 'Big', records }) },
    ]);
    const [report] = await m.t.ctx.db.select().from(dmarcReports).where(eq(dmarcReports.reportId, 'big-1'));
    expect(report).toMatchObject({ records: 100_000, messages: 100 * 1000 + 99_900, folded: true });
    const [{ n }] = (await m.t.ctx.db
      .select({ n: sql<string>`count(*)` })
      .from(dmarcReportRows)
      .where(eq(dmarcReportRows.reportId, report!.id))) as [{ n: string }];
    // The largest sources as they are, the rest folded by results (pass or fail here): two rows with no IP.
    expect(Number(n)).toBe(MAX_SOURCE_ROWS + 2);
    const rows = await m.t.ctx.db.select().from(dmarcReportRows).where(eq(dmarcReportRows.reportId, report!.id));
    expect(rows.reduce((sum, r) => sum + r.count, 0)).toBe(report!.messages);
    expect(rows.filter((r) => r.count === 1000)).toHaveLength(100);
  });

  it('retention deletes reports received past their days, with their rows', async () => {
    const later = new Date(Date.now() + 401 * 24 * 3600 * 1000);
    expect(await expireReports({ db: m.t.ctx.db, days: 400, now: later })).toBeGreaterThan(0);
    expect(await m.t.ctx.db.select().from(dmarcReports)).toHaveLength(0);
    expect(await m.t.ctx.db.select().from(dmarcReportRows)).toHaveLength(0);
  });
});

/**
 * The Deliverability page in Chromium: an admin turns DMARC reports on and is shown the records to publish; reports
 * delivered over SMTP to the report addresses show as the pass rate, the sources (failures not ours first) and the
 * TLS reports, beside the blocklists.
 */
import { gzipSync } from 'node:zlib';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboundReceiver } from '../../../src/modules/inbound/index.ts';
import type { SmtpListener } from '../../../src/net/smtp-listener.ts';
import { dmarcXml, tlsJson } from '../../support/report-files.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';

const MX = 'reports.herald.test';

describe('the Deliverability page, in Chromium', () => {
  let s: SignedIn;
  let listener: SmtpListener;

  beforeAll(async () => {
    s = await startSignedIn('brand.test', { env: { INBOUND_MX_HOST: MX, SENDING_IPS: '192.0.2.10' } });
    listener = await startInboundReceiver(s.t.ctx, 0);
  });
  afterAll(async () => {
    await listener?.close();
    await s?.close();
  });

  it('turns reports on, shows the records, then the DMARC pass rate, sources and TLS reports', async () => {
    const { page } = s;
    const [domain] = (await s.api('GET', '/domains')).items as { id: string }[];
    await page.goto(`${s.base}/app/domains/${domain!.id}`);
    await page.getByRole('link', { name: 'Deliverability' }).click();
    await page.getByRole('heading', { name: 'Deliverability of brand.test' }).waitFor();
    await page.getByText(/No DMARC reports yet/).waitFor();
    // The switch shows the saved state: it turns on once the change is saved.
    await page.getByLabel(/Receive DMARC aggregate and TLS reports/).click();
    const records = page.getByTestId('report-records');
    await records.getByText(`brand.test._report._dmarc.${MX}`).waitFor();
    await records.getByText('_smtp._tls.brand.test').waitFor();
    const dmarc = ((await s.api('GET', `/domains/${domain!.id}`)).records as { purpose: string; value: string }[]).find(
      (r) => r.purpose === 'DMARC',
    )!.value;
    const token = /dmarc-([0-9a-f]{32})@/.exec(dmarc)![1]!;

    const mail = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
    const today = Math.floor(Date.now() / 1000) - 86_400;
    await mail.sendMail({
      from: 'dmarc@receiver.example',
      to: `dmarc-${token}@${MX}`,
      subject: 'Report domain: brand.test',
      attachments: [
        {
          filename: 'r.xml.gz',
          content: gzipSync(
            dmarcXml({
              domain: 'brand.test',
              reportId: 'e2e-1',
              begin: today,
              records: [
                { ip: '192.0.2.10', count: 30, dkim: 'pass', dkimDomain: 'brand.test' },
                { ip: '198.51.100.66', count: 10 },
              ],
            }),
          ),
        },
      ],
    });
    const tlsReport = JSON.parse(tlsJson({ domain: 'brand.test', reportId: 'e2e-tls', successful: 50, failed: 2 }));
    tlsReport['date-range'] = {
      'start-datetime': new Date(today * 1000).toISOString(),
      'end-datetime': new Date(today * 1000 + 86_399_000).toISOString(),
    };
    await mail.sendMail({
      from: 'tls@receiver.example',
      to: `tls-${token}@${MX}`,
      subject: 'Report domain: brand.test',
      attachments: [{ filename: 't.json.gz', content: gzipSync(JSON.stringify(tlsReport)) }],
    });

    await page.reload();
    const panel = page.getByRole('region', { name: 'DMARC, last 30 days' });
    await panel.getByTestId('dmarc-pass-rate').waitFor();
    expect(await panel.getByTestId('dmarc-messages').textContent()).toBe('40');
    const rows = panel.getByRole('table', { name: 'Sending sources the reports name' }).locator('tbody tr');
    expect(await rows.first().textContent()).toContain('198.51.100.66');
    expect(await rows.first().textContent()).toContain('Not ours');
    const tls = page.getByRole('region', { name: 'TLS reports, last 30 days' });
    await tls.getByText('certificate-expired (2)').waitFor();
    await page.getByRole('region', { name: 'Blocklists' }).waitFor();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

/**
 * Deliverability in Chromium. The pre-send check on a campaign's page: its score and each issue with its fix; a
 * linked domain on the blocklist (answered by the test DNS server) holds the send until the sender ticks "send
 * despite", and fixing the campaign clears it. The domain page's blocklist lookups, and "Check now".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';

const ZONE = 'dbl.blocklist.test';

describe('the pre-send check on the campaign page, in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('checked.test', { env: { DNSBL_DOMAIN_ZONES: ZONE } });
    s.dns.setRecords(`bad.example.${ZONE}`, [{ type: 'A', address: '127.0.1.2' }]);
    await upsertContacts({
      db: s.t.ctx.db,
      consent: { type: 'api' },
      projectId: s.projectId,
      rows: [{ email: 'reader@dest.test', defaultSubscribed: true }],
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows the issues with their fixes, holds a send with an error until forced, and clears when fixed', async () => {
    const { page } = s;
    const id = (
      await s.api('POST', '/campaigns', {
        name: 'Deals',
        audienceType: 'ALL',
        subject: 'Deals',
        from: 'news@checked.test',
        body: '<p>This week only, a deal worth reading about.</p><a href="https://bad.example/deal">deal</a>',
      })
    ).id;
    await page.goto(`${s.base}/app/campaigns/${id}`);
    const check = page.getByRole('region', { name: /Pre-send check/ });
    await check.getByText('bad.example').waitFor();
    expect(await check.getByTestId('check-score').textContent()).toBe('65');
    await check.getByText(/Fix: Add a visible link/).waitFor();
    const sendNow = page.getByRole('button', { name: 'Send now' });
    expect(await sendNow.isDisabled()).toBe(true);
    await page.getByLabel(/Send despite the check/).check();
    expect(await sendNow.isDisabled()).toBe(false);

    await s.api('PATCH', `/campaigns/${id}`, {
      body: '<p>This week only, a deal worth reading about.</p><a href="{{ unsubscribeUrl }}">Unsubscribe</a>',
    });
    await page.reload();
    await check.getByText('Nothing to fix.').waitFor();
    expect(await check.getByTestId('check-score').textContent()).toBe('100');
    expect(await page.getByLabel(/Send despite the check/).count()).toBe(0);
    await sendNow.click();
    await page.getByRole('button', { name: 'Send to 1 now' }).click();
    await expect
      .poll(async () => (await s.api('GET', `/campaigns/${id}`)).status, { timeout: 30_000 })
      .toMatch(/SENDING|SENT/);
  });

  it("shows the domain's blocklist lookups and looks them up again on Check now", async () => {
    const { page } = s;
    const [domain] = (await s.api('GET', '/domains')).items as { id: string }[];
    // Verification looked the domain up before the blocklist listed it.
    await expect
      .poll(async () => ((await s.api('GET', `/domains/${domain!.id}/blocklists`)) as unknown as unknown[]).length, {
        timeout: 30_000,
      })
      .toBe(1);
    await page.goto(`${s.base}/app/domains/${domain!.id}`);
    const panel = page.getByRole('region', { name: 'Blocklists' });
    const row = panel.locator('tbody tr').filter({ hasText: 'checked.test' });
    await row.getByText('Not listed').waitFor();
    s.dns.setRecords(`checked.test.${ZONE}`, [{ type: 'A', address: '127.0.1.5' }]);
    await panel.getByRole('button', { name: 'Check now' }).click();
    await row.getByText('127.0.1.5').waitFor();
    expect(await row.getByText('Listed', { exact: true }).count()).toBe(1);
    expect((await s.api('GET', `/domains/${domain!.id}`)).blocklisted).toEqual([`checked.test on ${ZONE}`]);
    s.dns.setRecords(`checked.test.${ZONE}`, []);
    await panel.getByRole('button', { name: 'Check now' }).click();
    await row.getByText('Not listed').waitFor();
  });

  it("shows a template's check on its page", async () => {
    const { page } = s;
    const template = await s.api('POST', '/templates', {
      name: 'Promo',
      type: 'MARKETING',
      subject: 'Promo',
      body: '<p>Our spring offer, for a week only.</p><img src="https://cdn.checked.test/offer.png">',
      from: 'news@checked.test',
    });
    await page.goto(`${s.base}/app/templates/${template.id}`);
    const check = page.getByRole('region', { name: /Pre-send check/ });
    await check.getByText(/1 image\(s\) have no alt text/).waitFor();
    await check.getByText(/no \{\{ unsubscribeUrl \}\}/).waitFor();
    expect(await check.getByTestId('check-score').textContent()).toBe('80');
  });
});

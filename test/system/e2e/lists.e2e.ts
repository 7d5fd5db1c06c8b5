/**
 * Lists a user can work with, in Chromium: the emails page searches by recipient (kept in the address) and
 * names each email's campaign with a link; contacts show and find internationalised addresses in Unicode; the
 * CSV import shows a chosen file's name, row count and first rows, and says plainly what is missing; two ticked
 * contacts are unsubscribed by a bulk action whose progress shows until it completes; the CSV export downloads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('lists in Chromium', () => {
  let s: SignedIn;
  let campaignId: string;

  beforeAll(async () => {
    s = await startSignedIn('lists.test');
    for (const email of ['ann@dest.test', 'annabel@dest.test', 'bob@dest.test'])
      await s.api('POST', '/contacts', { email, subscribed: true });
    campaignId = (
      await s.api('POST', '/campaigns', {
        name: 'Autumn letter',
        audienceType: 'ALL',
        subject: 'Autumn',
        body: '<p>Hi</p>',
        from: 'news@lists.test',
      })
    ).id;
    await s.api('POST', `/campaigns/${campaignId}/send`);
    await until(
      async () => (await s.api('GET', `/campaigns/${campaignId}`)).status === 'SENT',
      'campaign SENT',
      30_000,
    );
  });
  afterAll(() => s?.close());

  it(
    'searches emails by recipient, keeps the search in the address, and links each ' + 'email to its campaign by name',
    async () => {
      const { page } = s;
      await page.goto(`${s.base}/app/emails`);
      await page.getByRole('heading', { level: 1, name: 'Emails' }).waitFor();
      await page.getByLabel('Recipient').fill('ANN');
      await page.waitForURL(/[?&]to=ANN/);
      const rows = page.locator('table.data-table tbody tr');
      await until(async () => (await rows.count()) === 2, 'two rows for ann');
      expect((await Promise.all((await rows.all()).map((r) => text(r.locator('td').first())))).sort()).toEqual([
        'ann@dest.test',
        'annabel@dest.test',
      ]);

      await page.reload();
      expect(await page.getByLabel('Recipient').inputValue()).toBe('ANN');
      await until(async () => (await rows.count()) === 2, 'two rows after a reload');
      await rows.first().getByRole('link', { name: 'Autumn letter' }).click();
      await page.getByRole('heading', { level: 1, name: 'Autumn letter' }).waitFor();
      expect(page.url()).toBe(`${s.base}/app/campaigns/${campaignId}`);
      expect(s.b.unexpectedErrors()).toEqual([]);
    },
  );

  it('shows an internationalised address in Unicode and finds it by the Unicode domain', async () => {
    await s.api('POST', '/contacts', { email: 'jörg@bücher.example' });
    const { page } = s;
    await page.goto(`${s.base}/app/contacts?search=${encodeURIComponent('bücher')}`);
    const link = page.locator('table.data-table tbody tr').getByRole('link', { name: 'jörg@bücher.example' });
    await link.waitFor();
    expect(await page.locator('table.data-table tbody tr').count()).toBe(1);
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'jörg@bücher.example' }).waitFor();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('imports a CSV file shown by name, row count and first rows, and says plainly what is missing', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/contacts`);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const file = page.getByLabel('CSV file');

    await file.setInputFiles({ name: 'names.csv', mimeType: 'text/csv', buffer: Buffer.from('name,plan\nAda,pro\n') });
    await page.getByRole('alert').filter({ hasText: 'The file has no email column' }).waitFor();
    expect(await page.getByRole('button', { name: 'Start import' }).isDisabled()).toBe(true);

    const csv = [
      'email,name',
      'c1@dest.test,One',
      ',Nobody',
      'c3@dest.test,Three',
      ...Array.from({ length: 7 }, (_, i) => `more${i}@dest.test,M${i}`),
    ].join('\n');
    await file.setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('import-summary').filter({ hasText: 'people.csv: 10 rows' }).waitFor();
    expect(await page.getByLabel(/or paste the CSV/).count()).toBe(0);
    const preview = page.getByRole('table', { name: 'First 5 rows' });
    expect(await preview.locator('tbody tr').count()).toBe(5);
    expect(await text(preview.locator('tbody tr').first())).toContain('c1@dest.test');

    await page.getByRole('button', { name: 'Start import' }).click();
    await page.locator('.import-status .badge', { hasText: 'COMPLETED' }).waitFor();
    const rejected = page.getByRole('table', { name: 'Rejected rows' });
    expect(await text(rejected.locator('tbody tr').first())).toContain('No email address in this row');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it(
    'unsubscribes two ticked contacts with a bulk action, shows it complete, and ' + 'exports the contacts as CSV',
    async () => {
      const { page } = s;
      await page.goto(`${s.base}/app/contacts?search=${encodeURIComponent('@dest.test')}`);
      await page.getByRole('link', { name: 'annabel@dest.test' }).waitFor();
      await page.getByLabel('Select ann@dest.test').check();
      await page.getByLabel('Select bob@dest.test').check();
      await page.getByRole('button', { name: 'Bulk action (2 selected)' }).click();
      await page.getByLabel('The 2 selected').waitFor();
      await page.getByLabel('Action', { exact: true }).selectOption('unsubscribe');
      await page.getByRole('button', { name: 'Run on 2 selected contacts' }).click();
      const status = page.getByTestId('bulk-status');
      await status.locator('.badge', { hasText: 'COMPLETED' }).waitFor();
      expect(await text(status.locator('p'))).toContain('2 of 2 processed, 0 failed');
      expect(await page.getByRole('progressbar', { name: 'Contacts processed' }).getAttribute('value')).toBe('2');
      // The list reloads with the change, and the API agrees: exactly those two are unsubscribed.
      const row = (email: string) =>
        page.locator('table.data-table tbody tr').filter({ has: page.getByRole('link', { name: email, exact: true }) });
      await row('ann@dest.test').locator('.badge', { hasText: 'UNSUBSCRIBED' }).waitFor();
      await row('bob@dest.test').locator('.badge', { hasText: 'UNSUBSCRIBED' }).waitFor();
      await row('annabel@dest.test')
        .locator('.badge', { hasText: /^SUBSCRIBED$/ })
        .waitFor();
      const unsubscribed = (await s.api('GET', '/contacts?subscribed=false&limit=100')).items
        .map((c) => String(c.email))
        .sort();
      expect(unsubscribed).toEqual(['ann@dest.test', 'bob@dest.test']);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('contacts.csv');
      const fs = await import('node:fs');
      const csv = fs.readFileSync((await file.path())!, 'utf8');
      expect(csv.split('\n')[0]).toMatch(/^id,email,subscribed,createdAt,updatedAt/);
      expect(csv).toContain('ann@dest.test');
      expect(s.b.unexpectedErrors()).toEqual([]);
    },
  );
});

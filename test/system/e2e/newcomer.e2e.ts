/**
 * What a newcomer trips over, in Chromium: contacts who never subscribed told from those who left, the email log's
 * engagement and the clicked link, the campaign test send's link, nested workflow steps counted, a clean import
 * closing its panel, the segment builder's live count, errors without status prefixes (and no retry where retrying
 * cannot help), the project's name in the header and the prompt to name a Default project, and rates in percent.
 */
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('a newcomer’s second look in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('second.test');
  });
  afterAll(() => s?.close());

  it('shows a contact who never subscribed apart from one who unsubscribed, with a filter for each', async () => {
    const { page } = s;
    await s.api('POST', '/contacts', { email: 'fan@second.test', subscribed: true });
    const left = await s.api('POST', '/contacts', { email: 'left@second.test', subscribed: true });
    await s.api('PATCH', `/contacts/${left.id}`, { subscribed: false });
    await s.api('POST', '/contacts', { email: 'receipt@second.test', subscribed: false });
    await page.goto(`${s.base}/app/contacts`);
    const row = (email: string) =>
      page.getByRole('table', { name: 'Contacts' }).locator('tr').filter({ hasText: email });
    await row('receipt@second.test').locator('.badge', { hasText: 'NEVER SUBSCRIBED' }).waitFor();
    await row('left@second.test')
      .locator('.badge', { hasText: /^UNSUBSCRIBED$/ })
      .waitFor();
    await row('fan@second.test')
      .locator('.badge', { hasText: /^SUBSCRIBED$/ })
      .waitFor();

    await page.getByLabel('Subscription').selectOption('never_subscribed');
    await page.getByText('1 contact · page 1').waitFor();
    await row('receipt@second.test').waitFor();
    await page.getByLabel('Subscription').selectOption('unsubscribed');
    await page.getByText('1 contact · page 1').waitFor();
    await row('left@second.test').waitFor();
    await page.getByLabel('Subscription').selectOption('false');
    await page.getByText('2 contacts · page 1').waitFor();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('closes the import panel after a clean import and shows its result', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/contacts`);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await page.getByLabel('…or paste the CSV').fill('email,plan\nimp1@second.test,pro\nimp2@second.test,free');
    await page.getByRole('button', { name: 'Start import' }).click();
    const result = page.getByTestId('import-result');
    await result.waitFor();
    expect(await text(result)).toBe('Import completed: 2 created, 0 updated, 0 rejected.');
    expect(await page.getByRole('region', { name: 'Import contacts from CSV' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Import CSV' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('counts the contacts a segment’s filter matches as it is edited', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/segments/new`);
    const count = page.getByTestId('live-count');
    // The default filter: subscribed contacts (fan, imp1, imp2).
    await count.filter({ hasText: '3 contacts match now' }).waitFor();
    await page.getByRole('button', { name: 'Add condition' }).click();
    await count.filter({ hasText: 'Finish the conditions' }).waitFor();
    const added = page.locator('li.condition').nth(1);
    await added.getByLabel('Value').fill('imp');
    await count.filter({ hasText: /^2 contacts match now$/ }).waitFor();
    await added.getByLabel('Value').fill('imp1');
    await count.filter({ hasText: /^1 contact matches now$/ }).waitFor();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('shows opens and clicks in the email log and the clicked link on the email’s page', async () => {
    const sent = await s.api('POST', '/v1/send', {
      to: 'reader@second.test',
      from: 'news@second.test',
      subject: 'Tracked',
      body: '<p>Hi</p><p><a href="https://example.com/offer">Offer</a></p>',
      tracking: true,
    });
    const id = (sent.emails as { email: string }[])[0]!.email;
    await until(async () => (await s.api('GET', `/emails/${id}`)).status === 'SENT', 'email SENT', 30_000);
    const html = String((await simpleParser(String((await s.api('GET', `/emails/${id}/source`)).source))).html);
    const click = new URL(/href="(https:\/\/mail\.herald\.test\/t\/c\/[^"]+)"/.exec(html)![1]!).pathname;
    expect((await s.t.app.inject({ url: click })).statusCode).toBe(302);

    const { page } = s;
    await page.goto(`${s.base}/app/emails`);
    const row = page.getByRole('table', { name: 'Emails' }).locator('tr').filter({ hasText: 'Tracked' });
    await row.waitFor();
    const headers = await page.getByRole('table', { name: 'Emails' }).locator('thead th').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Opened', 'Clicked']));
    const clickedAt = headers.indexOf('Clicked');
    expect(await text(row.locator('td').nth(clickedAt))).toBe('1 click');
    await row.getByRole('link', { name: 'reader@second.test' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tracked' }).waitFor();
    const links = page.getByTestId('clicked-links');
    await links.getByRole('link', { name: 'https://example.com/offer' }).waitFor();

    // The recipient's timeline lists the send once (not again as its queued and sent events), its click linked to it.
    const contactId = (await s.api('GET', `/emails/${id}`)).contactId as string;
    expect(contactId).toBeTruthy();
    await page.goto(`${s.base}/app/contacts/${contactId}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.locator('li.timeline-email').first().waitFor();
    await timeline
      .locator('li.timeline-event', { hasText: 'email.clicked' })
      .getByRole('link', { name: 'Tracked' })
      .waitFor();
    expect(await timeline.locator('li.timeline-email').count()).toBe(1);
    expect(await timeline.locator('li', { hasText: /email\.(queued|sent)/ }).count()).toBe(0);
    // A recipient of transactional mail never subscribed: it is not shown as an opt-out.
    const listed = await s.api('GET', '/contacts?search=reader@second.test');
    expect(listed.items.map((c) => c.subscription)).toEqual(['never_subscribed']);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('links a campaign test send to the email it made', async () => {
    const campaign = await s.api('POST', '/campaigns', {
      name: 'Trial',
      audienceType: 'ALL',
      subject: 'Hello',
      body: '<p>Hi</p>',
      from: 'news@second.test',
    });
    const { page } = s;
    await page.goto(`${s.base}/app/campaigns/${campaign.id}`);
    await page.getByLabel('Test recipient').fill('proof@second.test');
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByRole('status').getByRole('link', { name: 'view email' }).click();
    await page.waitForURL(/\/app\/emails\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: '[TEST] Hello' }).waitFor();
  });

  it('counts the steps inside branches in the workflows list', async () => {
    await s.api('POST', '/workflows', {
      name: 'Branchy',
      trigger: { type: 'MANUAL' },
      steps: [
        { type: 'DELAY', duration: '1d' },
        {
          type: 'CONDITION',
          if: { all: [{ field: 'subscribed', operator: 'equals', value: true }] },
          then: [
            { type: 'DELAY', duration: '1d' },
            { type: 'DELAY', duration: '2d' },
          ],
          else: [{ type: 'EXIT' }],
        },
      ],
    });
    const { page } = s;
    await page.goto(`${s.base}/app/workflows`);
    const table = page.getByRole('table', { name: 'Workflows' });
    const row = table.locator('tr').filter({ hasText: 'Branchy' });
    await row.waitFor();
    const steps = (await table.locator('thead th').allTextContents()).indexOf('Steps');
    expect(await text(row.locator('td').nth(steps))).toBe('5');
  });

  it('shows an error’s message without its status, and no "Try again" where retrying cannot help', async () => {
    const { page } = s;
    const missing = '0b7f6a9e-8e4f-4c52-9c1a-2f0e5d3c1a77';
    s.b.expectFailedRequest(`/contacts/${missing}`, 404);
    await page.goto(`${s.base}/app/contacts/${missing}`);
    const alert = page.getByRole('alert').filter({ hasText: 'not found' });
    await alert.waitFor();
    expect(await text(alert)).not.toMatch(/Error|404/);
    expect(await alert.getAttribute('data-status')).toBe('404');
    expect(await alert.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('types bounce and complaint limits in percent and stores the fraction', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/settings`);
    const bounce = page.getByLabel('Pause a campaign above this bounce rate (%)');
    const stored = (await s.api('GET', '/settings')) as unknown as { maxBounceRate: number };
    expect(Number(await bounce.inputValue())).toBeCloseTo(stored.maxBounceRate * 100, 8);
    await bounce.fill('8');
    await page.getByLabel('… or this complaint rate (%)').fill('0.2');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await s.api('GET', '/settings')).toMatchObject({ maxBounceRate: 0.08, maxComplaintRate: 0.002 });
  });

  it('names the project in the header, and asks for a name while it is called Default', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/`);
    await page.getByTestId('key-project').filter({ hasText: 'Acme' }).waitFor();
    expect(await page.getByTestId('name-project').count()).toBe(0);

    await s.api('PATCH', '/settings', { name: 'Default' });
    await page.reload();
    await page.getByTestId('name-project').waitFor();
    await page.getByTestId('name-project').getByRole('link', { name: 'Name it' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByTestId('name-project').waitFor();
    await page.getByLabel('Project name').fill('Acme News');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('key-project').filter({ hasText: 'Acme News' }).waitFor();
    expect(await page.getByTestId('name-project').count()).toBe(0);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

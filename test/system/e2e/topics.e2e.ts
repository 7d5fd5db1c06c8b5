/**
 * Topics and consent in Chromium: the Topics page creates, edits and deletes a topic; a contact's page shows its
 * topic choices with each topic's default and saves a change, shows its double opt-in state, and exports its data
 * as a JSON download.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('topics and consent in Chromium', () => {
  let s: SignedIn;
  let contactId: string;

  beforeAll(async () => {
    s = await startSignedIn('topics.test');
    const template = await s.api('POST', '/templates', {
      name: 'Confirm',
      subject: 'Confirm',
      body: '<p><a href="{{confirmUrl}}">Confirm</a></p>',
      type: 'MARKETING',
      from: 'hello@topics.test',
    });
    await s.api('PATCH', '/settings', { doubleOptIn: { templateId: template.id } });
    contactId = (await s.api('POST', '/v1/subscribe', { email: 'reader@dest.test' })).contact as string;
  });
  afterAll(() => s?.close());

  it("creates a topic, sets a contact's choice on its page, exports its data, and deletes the topic", async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/topics`);
    await page.getByRole('heading', { level: 1, name: 'Topics' }).waitFor();
    await page.getByRole('button', { name: 'New topic' }).click();
    await page.getByLabel('Name').fill('Product news');
    await page.getByLabel('Description').fill('What we ship');
    await page.getByLabel('Default').selectOption('OPT_OUT');
    await page.getByRole('button', { name: 'Create topic' }).click();
    const link = page.locator('table.data-table tbody tr').getByRole('link', { name: 'Product news' });
    await link.waitFor();
    const [topic] = (await s.api('GET', '/topics')).items;
    expect(topic).toMatchObject({ name: 'Product news', description: 'What we ship', defaultSubscription: 'OPT_OUT' });

    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Product news' }).waitFor();
    expect(await page.getByLabel('Default').isDisabled()).toBe(true);
    await page.getByLabel('Description').fill('Releases, monthly');
    await page.getByRole('button', { name: 'Save topic' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await s.api('GET', `/topics/${topic!.id}`)).description).toBe('Releases, monthly');

    // The contact: pending confirmation, and in the opt-out topic by default.
    await page.goto(`${s.base}/app/contacts/${contactId}`);
    await page.getByRole('heading', { level: 1, name: 'reader@dest.test' }).waitFor();
    const confirmation = page.getByTestId('confirmation');
    await confirmation.waitFor();
    expect(await text(confirmation)).toMatch(/^PENDING Confirmation email sent .+; not confirmed yet\.$/);
    const choice = page.getByRole('checkbox', { name: /Product news/ });
    expect(await text(page.locator('label.check', { hasText: 'Product news' }))).toContain(
      'default: in (opt-out topic)',
    );
    expect(await choice.isChecked()).toBe(true);
    await choice.uncheck();
    await page.getByRole('button', { name: 'Save topics' }).click();
    await page.getByRole('status').filter({ hasText: 'Topics saved' }).waitFor();
    // The consent ledger shows the choice, newest first, with where it came from: this page is signed in with the
    // project's secret key, so the change came through the API (a signed-in person's is "the dashboard").
    await page.getByTestId('consent-ledger').getByText('Chose out of Product news').waitFor();
    expect(await text(page.getByTestId('consent-ledger').locator('li').first())).toMatch(
      /Chose out of Product news through the API · 127\.0\.0\.1 · Mozilla/,
    );
    expect(await s.api('GET', `/contacts/${contactId}/topics`)).toEqual([
      { topicId: topic!.id, name: 'Product news', subscribed: false },
    ]);
    await page.reload();
    await page.getByRole('checkbox', { name: /Product news/ }).waitFor();
    expect(await page.getByRole('checkbox', { name: /Product news/ }).isChecked()).toBe(false);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`contact-${contactId}.json`);
    const exported = JSON.parse(fs.readFileSync(await file.path(), 'utf8')) as {
      contact: { email: string };
      topics: unknown[];
      consent: { action: string; source: { type: string } }[];
    };
    expect(exported.contact.email).toBe('reader@dest.test');
    expect(exported.topics).toEqual([{ topicId: topic!.id, name: 'Product news', subscribed: false }]);
    expect(exported.consent.at(-1)).toMatchObject({ action: 'topic_out', source: { type: 'api' } });

    await page.goto(`${s.base}/app/topics/${topic!.id}`);
    await page.getByRole('button', { name: 'Delete topic' }).click();
    await page.getByRole('button', { name: 'Yes, delete topic' }).click();
    await page.getByRole('heading', { level: 1, name: 'Topics' }).waitFor();
    await page.getByText('No topics yet.').waitFor();
    expect((await s.api('GET', '/topics')).items).toEqual([]);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

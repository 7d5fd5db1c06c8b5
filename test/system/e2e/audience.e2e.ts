/**
 * The audience in Chromium: a tracked list gets members by pasted addresses (an unknown one shown as not
 * added), loses one, and shows the day's entries and exits; a bulk action adds every contact the contacts
 * search matches to a list; a segment's topic condition is built, read back and changed; a campaign's topic
 * is saved and narrows its recipients; the settings page sets the double opt-in template, refuses one
 * without a confirmation link, and turns it off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('the audience in Chromium', () => {
  let s: SignedIn;
  let ann: string;
  let topicId: string;

  const memberEmails = async (segmentId: string) =>
    (await s.api('GET', `/segments/${segmentId}/contacts?limit=100`)).items.map((c) => String(c.email)).sort();

  beforeAll(async () => {
    s = await startSignedIn('audience.test');
    ann = (await s.api('POST', '/contacts', { email: 'ann@club.test', subscribed: true })).id;
    for (const email of ['bob@club.test', 'cy@club.test', 'dee@other.test'])
      await s.api('POST', '/contacts', { email, subscribed: true });
    topicId = (await s.api('POST', '/topics', { name: 'Product news', defaultSubscription: 'OPT_IN' })).id;
    await s.api('PATCH', `/contacts/${ann}/topics`, { topics: [{ id: topicId, subscribed: true }] });
  });
  afterAll(() => s?.close());

  it(
    'adds pasted addresses to a tracked list (an unknown one shown as not added), ' +
      "removes one, and counts the day's entries and exits",
    async () => {
      const { page } = s;
      await page.goto(`${s.base}/app/segments/new`);
      await page.getByLabel('Name', { exact: true }).fill('Club');
      await page.getByLabel('Type', { exact: true }).selectOption('STATIC');
      await page.getByLabel(/Track entries and exits/).check();
      await page.getByRole('button', { name: 'Create segment' }).click();
      await page.waitForURL(/\/app\/segments\/[0-9a-f-]{36}$/);
      const id = page.url().split('/').pop()!;
      expect(await s.api('GET', `/segments/${id}`)).toMatchObject({ type: 'STATIC', trackMembership: true });

      await page.getByLabel('Email addresses').fill('ann@club.test, bob@club.test\nnobody@club.test');
      await page.getByRole('button', { name: 'Add to list' }).click();
      await page.getByRole('status').filter({ hasText: '2 added, 0 already members.' }).waitFor();
      const missing = page.getByTestId('missing-members');
      expect(await text(missing.locator('p'))).toBe(
        'Not added: no contact has this address (tick “Create contacts…” to add them).',
      );
      expect(await missing.locator('li').allTextContents()).toEqual(['nobody@club.test']);
      await page.getByTestId('member-count').filter({ hasText: /^2$/ }).waitFor();
      const members = page.getByRole('table', { name: 'Segment members' });
      await members.getByRole('link', { name: 'bob@club.test' }).waitFor();
      expect(await memberEmails(id)).toEqual(['ann@club.test', 'bob@club.test']);

      await members.getByRole('button', { name: 'Remove bob@club.test from the list' }).click();
      await page.getByTestId('member-count').filter({ hasText: /^1$/ }).waitFor();
      await members.getByRole('link', { name: 'bob@club.test' }).waitFor({ state: 'detached' });
      expect(await memberEmails(id)).toEqual(['ann@club.test']);
      await page.getByTestId('membership-24h').filter({ hasText: 'Last 24 hours: 2 entered, 1 left.' }).waitFor();
      expect(await s.api('GET', `/segments/${id}`)).toMatchObject({ enteredLast24h: 2, exitedLast24h: 1 });

      await page.getByLabel('Email addresses').fill('ann@club.test');
      await page.getByRole('button', { name: 'Add to list' }).click();
      await page.getByRole('status').filter({ hasText: '0 added, 1 already a member.' }).waitFor();
      expect(await missing.count()).toBe(0);
      expect(s.b.unexpectedErrors()).toEqual([]);
    },
  );

  it('adds every contact the contacts search matches to a list with a bulk action', async () => {
    const list = await s.api('POST', '/segments', { name: 'Club, all of it', type: 'STATIC' });
    const { page } = s;
    await page.goto(`${s.base}/app/contacts?search=${encodeURIComponent('@club.test')}`);
    await page.getByRole('link', { name: 'cy@club.test' }).waitFor();
    await page.getByRole('button', { name: 'Bulk action' }).click();
    await page.getByLabel('All 3 matching the current filter').check();
    await page.getByLabel('Action', { exact: true }).selectOption('addToSegment');
    await page.getByLabel('List', { exact: true }).selectOption(list.id);
    await page.getByRole('button', { name: 'Run on all 3 matching contacts' }).click();
    const status = page.getByTestId('bulk-status');
    await status.locator('.badge', { hasText: 'COMPLETED' }).waitFor();
    expect(await text(status.locator('p'))).toContain('3 of 3 processed, 0 failed');
    expect(await memberEmails(list.id)).toEqual(['ann@club.test', 'bob@club.test', 'cy@club.test']);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('builds a segment on a topic condition, reads it back as one, and changes its operator', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/segments/new`);
    await page.getByLabel('Name', { exact: true }).fill('News readers');
    await page.getByRole('button', { name: 'Add condition' }).click();
    const row = page.locator('li.condition').nth(1);
    await row.getByLabel('Condition type').selectOption('topic');
    await row.getByLabel(/^Topic/).selectOption(topicId);
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.waitForURL(/\/app\/segments\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    const topicCondition = { topic: topicId, operator: 'subscribed' };
    expect(await s.api('GET', `/segments/${id}`)).toMatchObject({
      filter: { all: [{ field: 'subscribed', operator: 'equals', value: true }, topicCondition] },
      memberCount: 1,
    });

    await page.reload();
    const read = page.locator('li.condition[data-kind="topic"]');
    await read.waitFor();
    expect(await read.getByLabel('Condition type').inputValue()).toBe('topic');
    expect(await read.getByLabel(/^Topic/).inputValue()).toBe(topicId);
    // Named once the project's topics are in (until then by its id).
    await until(
      async () =>
        (await read
          .getByLabel(/^Topic/)
          .locator('option:checked')
          .textContent()) === 'Product news',
      'the topic named',
    );
    expect(await read.getByLabel('Operator').inputValue()).toBe('subscribed');
    await read.getByLabel('Operator').selectOption('notSubscribed');
    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.getByTestId('member-count').filter({ hasText: /^3$/ }).waitFor();
    expect((await s.api('GET', `/segments/${id}`)).filter).toEqual({
      all: [
        { field: 'subscribed', operator: 'equals', value: true },
        { topic: topicId, operator: 'notSubscribed' },
      ],
    });
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it("saves a campaign's topic, which narrows its recipients to the topic's contacts, and clears it", async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/campaigns/new`);
    await page.getByLabel('Name', { exact: true }).fill('Release notes');
    await page.getByLabel('From address').fill('news@audience.test');
    await page.getByLabel('Subject').fill('What shipped');
    await page.getByLabel('Body (HTML with Liquid)').fill('<p>New things</p>');
    const topic = page.getByLabel('Topic', { exact: true });
    await until(async () => (await topic.locator('option').count()) === 2, 'the topic offered');
    await topic.selectOption(topicId);
    expect(await text(page.locator('.field', { has: topic }).locator('.hint'))).toBe(
      'Only contacts who chose “Product news” receive it (an opt-in topic).',
    );
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/app\/campaigns\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.getByTestId('recipient-count').filter({ hasText: /^1$/ }).waitFor();
    expect(await s.api('GET', `/campaigns/${id}`)).toMatchObject({ topicId, recipientCount: 1 });

    await page.reload();
    await until(
      async () => (await page.getByLabel('Topic', { exact: true }).inputValue()) === topicId,
      'the saved topic shown',
    );
    await page.getByLabel('Topic', { exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByTestId('recipient-count').filter({ hasText: /^4$/ }).waitFor();
    expect(await s.api('GET', `/campaigns/${id}`)).toMatchObject({ topicId: null, recipientCount: 4 });
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it(
    'sets the double opt-in template in settings, refuses one without a confirmation ' + 'link, and turns it off',
    async () => {
      const confirm = await s.api('POST', '/templates', {
        name: 'Confirm signup',
        type: 'MARKETING',
        subject: 'Confirm',
        body: '<p><a href="{{confirmUrl}}">Yes</a></p>',
        from: 'hi@audience.test',
      });
      await s.api('POST', '/templates', {
        name: 'Plain news',
        type: 'MARKETING',
        subject: 'News',
        body: '<p>News</p>',
        from: 'hi@audience.test',
      });
      const { page } = s;
      await page.goto(`${s.base}/app/settings`);
      const select = page.getByLabel('Double opt-in confirmation');
      await until(async () => (await select.locator('option').count()) === 3, 'both templates offered');
      expect(await select.inputValue()).toBe('');

      s.b.expectFailedRequest('/settings', 422);
      await select.selectOption({ label: 'Plain news' });
      await page.getByRole('button', { name: 'Save settings' }).click();
      const form = page.getByRole('form', { name: 'Project settings' });
      await form.getByRole('alert').filter({ hasText: 'confirmUrl' }).waitFor();
      expect(await form.getByRole('status').count()).toBe(0);
      expect((await s.api('GET', '/settings')).doubleOptIn).toBeNull();

      await select.selectOption({ label: 'Confirm signup' });
      await page.getByRole('button', { name: 'Save settings' }).click();
      await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await s.api('GET', '/settings')).doubleOptIn).toEqual({ templateId: confirm.id });
      await page.reload();
      await until(
        async () => (await page.getByLabel('Double opt-in confirmation').inputValue()) === confirm.id,
        'the saved template shown',
      );

      await page.getByLabel('Double opt-in confirmation').selectOption('');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await s.api('GET', '/settings')).doubleOptIn).toBeNull();
      expect(s.b.unexpectedErrors()).toEqual([]);
    },
  );
});

/**
 * Forms that tell the truth, in Chromium: the contact form never shows "Saved" beside an error, filter
 * conditions read as sentences with a campaign picker and start afresh when their field changes, and saving a
 * workflow without changing it sends no steps and keeps its version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedIn, type SignedIn } from './signed-in.ts';

describe('dashboard forms in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('forms.test');
  });
  afterAll(() => s?.close());

  it('shows only the error, never "Saved", for invalid JSON data or a save the server refuses', async () => {
    const ada = await s.api('POST', '/contacts', { email: 'ada@forms.test', data: { plan: 'pro' } });
    await s.api('POST', '/contacts', { email: 'taken@forms.test' });
    const { page } = s;
    await page.goto(`${s.base}/app/contacts/${ada.id}`);
    await page.getByRole('heading', { level: 1, name: 'ada@forms.test' }).waitFor();
    const saved = page.getByRole('status').filter({ hasText: 'Saved' });

    await page.getByLabel('Data', { exact: true }).fill('{"plan": "team",');
    await page.getByRole('button', { name: 'Save contact' }).click();
    await page.getByRole('alert').filter({ hasText: 'Data is not a valid JSON object' }).waitFor();
    expect(await saved.count()).toBe(0);
    expect((await s.api('GET', `/contacts/${ada.id}`)).data).toEqual({ plan: 'pro' });

    await page.getByLabel('Data', { exact: true }).fill('{"plan": "team"}');
    await page.getByRole('button', { name: 'Save contact' }).click();
    await saved.waitFor();

    s.b.expectFailedRequest(`/contacts/${ada.id}`, 409);
    await page.getByLabel('Email', { exact: true }).fill('taken@forms.test');
    await page.getByRole('button', { name: 'Save contact' }).click();
    await page.locator('[role="alert"][data-status="409"]').waitFor();
    expect(await saved.count()).toBe(0);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it(
    'reads email-activity conditions as sentences, picks campaigns by name, and ' +
      'resets a condition when its field changes',
    async () => {
      const spring = await s.api('POST', '/campaigns', {
        name: 'Spring sale',
        audienceType: 'ALL',
        subject: 'Hi',
        body: '<p>Hi</p>',
        from: 'news@forms.test',
      });
      const { page } = s;
      await page.goto(`${s.base}/app/segments/new`);
      await page.getByRole('heading', { level: 1, name: 'New segment' }).waitFor();
      await page.getByRole('button', { name: 'Add condition' }).click();
      const row = page.locator('li.condition').first();

      await row.getByLabel('Field').selectOption('email');
      await row.getByLabel('Operator').selectOption('endsWith');
      await row.getByLabel('Value').fill('@forms.test');
      await row.getByLabel('Field').selectOption('createdAt');
      expect(await row.getByLabel('Operator').inputValue()).toBe('greaterThan');
      expect(await row.getByLabel('Value').inputValue()).toBe('');

      await row.getByLabel('Condition type').selectOption('activity');
      // The row as a reader sees it: each select's chosen option, each word, each input's value (or placeholder).
      type Part = {
        tagName: string;
        value?: string;
        placeholder?: string;
        textContent: string | null;
        selectedOptions?: ArrayLike<{ textContent: string | null }>;
      };
      const sentence = async () =>
        row.evaluate((li: { querySelectorAll(selector: string): ArrayLike<Part> }) =>
          Array.from(li.querySelectorAll('select, .word, input:not([type=checkbox])'))
            .map((el) =>
              el.tagName === 'SELECT'
                ? el.selectedOptions?.[0]?.textContent
                : el.tagName === 'INPUT'
                  ? el.value || el.placeholder
                  : el.textContent,
            )
            .join(' '),
        );
      expect(await sentence()).toBe('Email activity has opened an email from any email within 30d');
      await row.getByLabel('Operator').selectOption({ label: 'has not' });
      await row.getByLabel('Campaign').selectOption({ label: 'campaign “Spring sale”' });
      expect(await sentence()).toBe('Email activity has not opened an email from campaign “Spring sale” within 30d');
      await page.getByLabel('Edit as JSON').check();
      const json = JSON.parse(await page.getByLabel('Filter (JSON)').inputValue()) as {
        all: Record<string, unknown>[];
      };
      expect(json.all[0]).toEqual({
        activity: 'opened',
        operator: 'notPerformed',
        within: '30d',
        campaignId: spring.id,
      });
      expect(s.b.unexpectedErrors()).toEqual([]);
    },
  );

  it('saves an unchanged workflow without sending its steps, keeping its version', async () => {
    const template = await s.api('POST', '/templates', {
      name: 'Hello',
      type: 'TRANSACTIONAL',
      subject: 'Hello',
      body: '<p>Hello</p>',
      from: 'hi@forms.test',
    });
    const w = await s.api('POST', '/workflows', {
      name: 'Steady',
      trigger: { type: 'EVENT', event: 'joined' },
      steps: [
        { type: 'SEND_EMAIL', templateId: template.id, data: { b: 1, a: 2 } },
        {
          type: 'CONDITION',
          if: { all: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] },
          then: [{ type: 'DELAY', duration: '1d' }],
        },
      ],
    });
    const { page } = s;
    await page.goto(`${s.base}/app/workflows/${w.id}`);
    await page.getByRole('heading', { level: 1, name: 'Steady' }).waitFor();
    const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(`/workflows/${w.id}`));
    await page.getByRole('button', { name: 'Save workflow' }).click();
    expect(JSON.parse((await patch).postData() ?? '{}')).toEqual({});
    await page.getByLabel('Name', { exact: true }).fill('Steady 2');
    const rename = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(`/workflows/${w.id}`));
    await page.getByRole('button', { name: 'Save workflow' }).click();
    expect(JSON.parse((await rename).postData() ?? '{}')).toEqual({ name: 'Steady 2' });
    await page.getByRole('heading', { level: 1, name: 'Steady 2' }).waitFor();
    expect(await s.api('GET', `/workflows/${w.id}`)).toMatchObject({ name: 'Steady 2', version: 1 });
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

/**
 * What a newcomer trips over, a third look in Chromium: the project's default sender set on the settings page (its
 * problem shown once, under the field) and taken by a new campaign left without one, a contact who never subscribed
 * shown so on its own page, and a template that does not parse, each of its errors shown once in the preview with its
 * line and column.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

/** How many times `needle` appears in `haystack`. */
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe('a newcomer’s third look in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('third.test');
  });
  afterAll(() => s?.close());

  it('sets the default sender on the settings page, refusing one off the verified domains under it', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/settings`);
    const field = page.getByLabel('Default sender');
    expect(await field.inputValue()).toBe('');
    await field.fill('Acme <hello@elsewhere.test>');
    s.b.expectFailedRequest('/settings', 422);
    await page.getByRole('button', { name: 'Save settings' }).click();
    const problem = page.locator('#set-from-note[role="alert"]');
    await problem.waitFor();
    expect(await text(problem)).toBe('The sender domain of hello@elsewhere.test is not verified in this project');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    // Said once: not again below the form.
    expect(occurrences(await page.locator('main').innerText(), 'is not verified in this project')).toBe(1);
    expect((await s.api('GET', '/settings')).defaultFrom).toBeNull();

    await field.fill('Acme <hello@third.test>');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBeNull();
    expect((await s.api('GET', '/settings')).defaultFrom).toBe('Acme <hello@third.test>');
    // A send without a sender now goes out from it.
    const sent = await s.api('POST', '/v1/send', { to: 'ann@dest.test', subject: 'Hi', body: '<p>Hi</p>' });
    const emailId = (sent.emails as { email: string }[])[0]!.email;
    expect((await s.api('GET', `/emails/${emailId}`)).from).toBe('hello@third.test');
    await page.reload();
    expect(await page.getByLabel('Default sender').inputValue()).toBe('Acme <hello@third.test>');

    // A new campaign may leave its sender empty: it gets the default.
    await page.goto(`${s.base}/app/campaigns/new`);
    await page.getByLabel('Name', { exact: true }).fill('Defaults');
    await page.getByText('Empty: Acme <hello@third.test>, the project’s default sender.').waitFor();
    await page.getByLabel('Subject').fill('News');
    await page.getByLabel('Body (HTML with Liquid)').fill('<p>News</p>');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/app\/campaigns\/[0-9a-f-]{36}$/);
    const campaignId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(await s.api('GET', `/campaigns/${campaignId}`)).toMatchObject({
      from: 'hello@third.test',
      fromName: 'Acme',
    });
    expect(await page.getByLabel('From address').inputValue()).toBe('hello@third.test');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('shows a contact who never subscribed as such on its page, and an opt-out as unsubscribed', async () => {
    const { page } = s;
    const contact = await s.api('POST', '/contacts', { email: 'receipt@dest.test', subscribed: false });
    await page.goto(`${s.base}/app/contacts/${contact.id}`);
    const header = page.locator('.page-header');
    await header.locator('.badge', { hasText: /^NEVER SUBSCRIBED$/ }).waitFor();

    await page.getByLabel(/Subscribed to/).check();
    await page.getByRole('button', { name: 'Save contact' }).click();
    await header.locator('.badge', { hasText: /^SUBSCRIBED$/ }).waitFor();
    await page.getByLabel(/Subscribed to/).uncheck();
    await page.getByRole('button', { name: 'Save contact' }).click();
    await header.locator('.badge', { hasText: /^UNSUBSCRIBED$/ }).waitFor();
    await page.reload();
    await header.locator('.badge', { hasText: /^UNSUBSCRIBED$/ }).waitFor();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('shows each Liquid error of the subject and the body once in the preview, with line and column', async () => {
    const { page } = s;
    const subject = 'Hi {{ firstName';
    const body = '<p>Hello</p>\n<p>{% if plan %}pro</p>';
    const answer = await s.t.app.inject({
      method: 'POST',
      url: '/templates/preview',
      headers: s.auth,
      payload: { subject, format: 'html', body, data: {} },
    });
    expect(answer.statusCode).toBe(422);
    const errors = answer.json().error.errors as { field: string; message: string }[];
    expect(errors.map((e) => e.field)).toEqual(['subject', 'body']);
    for (const e of errors) expect(e.message).toMatch(/\(line \d+, column \d+\)$/);

    await page.goto(`${s.base}/app/templates/new`);
    await page.getByLabel('Name', { exact: true }).fill('Broken');
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Body (HTML with Liquid)').fill(body);
    await page.getByText(errors[1]!.message).first().waitFor();
    const shown = await page.locator('main').innerText();
    for (const e of errors) expect(occurrences(shown, e.message), e.message).toBe(1);
    const problems = page.getByTestId('preview-problems');
    expect(await problems.locator('li').allInnerTexts()).toEqual([
      `Subject: ${errors[0]!.message}`,
      `Body: ${errors[1]!.message}`,
    ]);
    // The fields in error are marked, their messages left to the preview.
    expect(await page.getByLabel('Subject').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Body (HTML with Liquid)').getAttribute('aria-invalid')).toBe('true');
    // Saving is refused for the same problems: said in a word, not listed again.
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByText('Not saved: fix the problems the preview lists.').waitFor();
    const afterSave = await page.locator('main').innerText();
    for (const e of errors) expect(occurrences(afterSave, e.message), e.message).toBe(1);

    await page.getByLabel('Subject').fill('Hi {{ firstName }}');
    await page.getByLabel('Body (HTML with Liquid)').fill('<p>Hello</p>');
    await page.getByTestId('preview-subject').waitFor();
    expect(await problems.count()).toBe(0);
    expect(await page.getByLabel('Subject').getAttribute('aria-invalid')).toBeNull();
  });
});

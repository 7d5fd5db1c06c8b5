/**
 * The request log in Chromium: the project's API requests listed newest first, filtered by status class, method and
 * path (the filters kept in the address), and a row opening the request with both bodies pretty-printed, the
 * password sent never shown.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushRequestLog } from '../../../src/modules/logs/index.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text, ui } from './ui.ts';

describe('the request log in Chromium', () => {
  let s: SignedIn;
  let page: Page;

  beforeAll(async () => {
    s = await startSignedIn('logs.test');
    page = s.page;
    await s.api('POST', '/contacts', { email: 'logged@example.com', data: { plan: 'gold' } });
    const bad = await s.t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: s.auth,
      payload: { email: 'not an address', password: 'never-shown-0123' },
    });
    expect(bad.statusCode).toBe(422);
    await flushRequestLog(s.t.ctx);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists requests, filters them, and opens one with both bodies', async () => {
    const u = ui(page);
    await page.goto(`${s.base}/app`);
    await u.nav('Request log');
    const table = page.getByRole('table', { name: 'Request log' });
    await table.getByRole('row').filter({ hasText: 'POST /contacts' }).first().waitFor();

    await page.getByLabel('Status').selectOption('4xx');
    await page.getByLabel('Method').selectOption('POST');
    await page.getByLabel('Path').fill('/contacts');
    await page.waitForURL(/path=%2Fcontacts/);
    await page.getByText('1 request · page 1').waitFor();
    const params = new URL(page.url()).searchParams;
    expect([params.get('status'), params.get('method'), params.get('path')]).toEqual(['4xx', 'POST', '/contacts']);
    const row = table.getByRole('row').filter({ hasText: 'POST /contacts' });
    expect(await text(row)).toContain('422');
    await u.screenshot('request-log');

    await row.getByRole('link', { name: 'POST /contacts' }).click();
    await u.heading('POST /contacts').waitFor();
    const sent = await text(page.getByRole('region', { name: 'Request body' }).locator('pre'));
    expect(sent).toContain('"email": "not an address"');
    expect(sent).toContain('"password": "[redacted]"');
    expect(sent).not.toContain('never-shown-0123');
    expect(await text(page.getByRole('region', { name: 'Response body' }).locator('pre'))).toContain(
      '"code": "VALIDATION_ERROR"',
    );
    await u.screenshot('request-log-entry');

    // Back to the list as it was left, filters and all.
    await page.goBack();
    await page.getByText('1 request · page 1').waitFor();
    expect(await page.getByLabel('Path').inputValue()).toBe('/contacts');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

/**
 * The key a dashboard sign-in with the admin token makes for its project: named, marked as a session key in
 * the keys list, and revoked when the page goes away (a reload makes a new one; closing the tab ends it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../support/app.ts';
import { until } from '../../support/until.ts';
import { startBrowser, type TestBrowser } from './browser.ts';

interface Key {
  id: string;
  name: string;
  session: boolean;
  revokedAt: string | null;
}

describe('dashboard session keys in Chromium', () => {
  let t: TestApp;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  let project: Awaited<ReturnType<TestApp['createProject']>>;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Solo');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    b = await startBrowser({ origin: base });
    page = b.page;
    page.setDefaultTimeout(20_000);
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const keys = async () =>
    (await t.app.inject({ method: 'GET', url: `/admin/projects/${project.id}/keys`, headers: t.admin })).json().data
      .items as Key[];
  const liveSessionKeys = async () => (await keys()).filter((k) => k.session && !k.revokedAt);

  it('makes a named session key on sign-in with the admin token and shows it with a Session badge', async () => {
    await page.goto(`${base}/`);
    await page.getByLabel('API key or admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const live = await liveSessionKeys();
    expect(live).toHaveLength(1);
    expect(live[0]!.name).toBe('Dashboard session');

    await page.getByRole('link', { name: 'Settings' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Dashboard session' });
    await row.waitFor();
    expect(await row.locator('.badge', { hasText: 'Session' }).count()).toBe(1);
    expect(
      await page.getByRole('row').filter({ hasText: 'Secret key' }).locator('.badge', { hasText: 'Session' }).count(),
    ).toBe(0);
  });

  it('revokes the key on a reload and carries on with a new one', async () => {
    const [before] = await liveSessionKeys();
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Dashboard session' }).first().waitFor();
    const all = await keys();
    expect(all.find((k) => k.id === before!.id)?.revokedAt ?? null).not.toBeNull();
    const live = await liveSessionKeys();
    expect(live).toHaveLength(1);
    expect(live[0]!.id).not.toBe(before!.id);
  });

  it('revokes the key when the tab is closed', async () => {
    const [live] = await liveSessionKeys();
    await page.close({ runBeforeUnload: true });
    await until(
      async () => (await keys()).find((k) => k.id === live!.id)?.revokedAt,
      'the session key revoked after the tab closed',
    );
    expect(await liveSessionKeys()).toEqual([]);
    expect(b.unexpectedErrors()).toEqual([]);
  });
});

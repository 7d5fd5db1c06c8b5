/**
 * People in the dashboard: signing in with an email and password (and a two-factor code), the signed-in person's
 * menu, and a browser of a person's own on a served Herald.
 *
 *   const p = await personBrowser(t);
 *   await signInAsPerson(p.page, 'owner@example.com');
 *   await signOutPerson(p.page, 'Olivia Owner');
 */
import type { Page } from 'playwright-core';
import type { TestApp } from '../../support/app.ts';
import { PASSWORD } from '../../support/people.ts';
import { startBrowser, type TestBrowser } from './browser.ts';
import { ui } from './ui.ts';

/** Fills the sign-in page's email and password and signs in; a two-factor account then asks for its code. */
export async function signInAsPerson(page: Page, email: string, password = PASSWORD): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in with email and password' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Opens the signed-in person's menu (the button with their name) and follows `item`: `Profile` or `Sign out`. */
export async function userMenu(page: Page, name: string, item: 'Profile' | 'Sign out'): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name, exact: true }).click();
  const banner = page.getByRole('banner');
  if (item === 'Profile') await banner.getByRole('link', { name: 'Profile' }).click();
  else await banner.getByRole('button', { name: 'Sign out' }).click();
}

/** The project the switcher shows open, as it reads: `Acme (editor)`. */
export async function openProject(page: Page): Promise<string | null> {
  return page.getByLabel('Project', { exact: true }).locator('option:checked').textContent();
}

/** Signs out from the person's menu and waits for the sign-in page. */
export async function signOutPerson(page: Page, name: string): Promise<void> {
  await userMenu(page, name, 'Sign out');
  await page.getByLabel('API key or admin token').waitFor();
}

export interface PersonBrowser {
  base: string;
  b: TestBrowser;
  page: Page;
  u: ReturnType<typeof ui>;
}

/** A fresh Chromium on the app, served on a port (listening once per app). */
export async function personBrowser(t: TestApp, base?: string): Promise<PersonBrowser> {
  const url = base ?? (await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const b = await startBrowser({ origin: url });
  b.page.setDefaultTimeout(20_000);
  return { base: url, b, page: b.page, u: ui(b.page) };
}

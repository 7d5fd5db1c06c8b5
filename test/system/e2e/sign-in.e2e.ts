/**
 * People signing in to the dashboard in Chromium: the first user made with the setup link, signing out and in with
 * an email and password (a wrong one refused), a reload that keeps the session, asking for a reset link and setting
 * a new password with one. A person's dashboard runs on the session cookie: it makes no session key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ensureSetupToken } from '../../../src/modules/accounts/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { PASSWORD } from '../../support/people.ts';
import type { TestBrowser } from './browser.ts';
import { openProject, personBrowser, signInAsPerson, signOutPerson } from './people.ts';
import { dropTemporaryScreenshots, text, type ui } from './ui.ts';

const NEW_PASSWORD = 'a brand new passphrase 42';

describe('signing in as a person in Chromium', () => {
  let t: TestApp;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  let u: ReturnType<typeof ui>;
  let project: Awaited<ReturnType<TestApp['createProject']>>;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Acme');
    ({ base, b, page, u } = await personBrowser(t));
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
    dropTemporaryScreenshots();
  });

  const liveSessionKeys = async () => {
    const res = await t.app.inject({ url: `/admin/projects/${project.id}/keys`, headers: t.admin });
    const keys = res.json().data.items as { session: boolean; revokedAt: string | null }[];
    return keys.filter((k) => k.session && !k.revokedAt);
  };

  it('says how the first user is made, then makes them with the setup link, owner of every project', async () => {
    await page.goto(`${base}/`);
    await page.getByTestId('setup-open').waitFor();
    await u.checkLook('sign-in');
    await u.screenshot('sign-in');
    await page.setViewportSize({ width: 390, height: 844 });
    await u.checkLook('sign-in (phone)');
    await u.screenshot('sign-in-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    // The key sign-in is on the same page, with its own button.
    await page.getByLabel('API key or admin token').waitFor();
    expect(await page.getByRole('link', { name: 'Sign in with SSO' }).count()).toBe(0);

    const token = await ensureSetupToken(t.ctx.db);
    await page.goto(`${base}/setup#${token}`);
    await u.heading('Herald').waitFor();
    await page.getByRole('heading', { name: 'Set up Herald' }).waitFor();
    // The secret of the link leaves the address once read.
    expect(new URL(page.url()).hash).toBe('');
    await page.setViewportSize({ width: 390, height: 844 });
    await u.checkLook('setup (phone)');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Your name').fill('Olivia Owner');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await u.heading('Overview').waitFor();
    expect(new URL(page.url()).pathname).toBe('/app');

    expect(await openProject(page)).toBe('Acme (owner)');
    // No key in the browser, none made on the server: the cookie is the session.
    expect(await page.evaluate("sessionStorage.getItem('herald.session')")).toBeNull();
    expect(await liveSessionKeys()).toEqual([]);
    const cookies = await b.context.cookies(base);
    expect(cookies.find((c) => c.name === 'herald_session')?.httpOnly).toBe(true);
    // An instance admin sees the team, the audit log and the projects.
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Team', 'Audit log', 'Projects']) {
      await nav.getByRole('link', { name: label, exact: true }).waitFor();
    }
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('keeps the session over a reload, and works in the project with the cookie', async () => {
    await u.nav('Contacts');
    await page.getByRole('button', { name: 'Add contact' }).click();
    const form = page.getByRole('form', { name: 'Add a contact' });
    await form.getByLabel('Email').fill('ann@example.com');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await u.heading('ann@example.com').waitFor();
    await page.reload();
    await u.heading('ann@example.com').waitFor();
    expect(await liveSessionKeys()).toEqual([]);
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('signs out, refuses a wrong password, and signs in with the right one', async () => {
    await signOutPerson(page, 'Olivia Owner');
    expect(await page.evaluate("localStorage.getItem('herald.person')")).toBeNull();
    // The cookie's session ended on the server too.
    const cookie = (await b.context.cookies(base)).find((c) => c.name === 'herald_session');
    expect(cookie?.value ?? '').toBe('');

    b.expectFailedRequest('/auth/sign-in', 401);
    await signInAsPerson(page, 'owner@example.com', 'not the password');
    await page.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();
    await signInAsPerson(page, 'owner@example.com');
    await u.heading('ann@example.com').waitFor(); // the page that was open
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('asks for a reset link without telling whether the address has an account', async () => {
    await signOutPerson(page, 'Olivia Owner');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/forgot-password');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const status = await text(page.getByRole('status'));
    expect(status).toMatch(/^If an account exists for nobody@example\.com, a link .* on its way/);
    await u.checkLook('forgot password');
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('sets a new password with a reset link and is signed in; the old password no longer works', async () => {
    const link = await t.app.inject({
      method: 'POST',
      url: '/admin/users/password-link',
      headers: t.admin,
      payload: { email: 'owner@example.com' },
    });
    expect(link.statusCode, link.body).toBe(200);
    const token = new URL(link.json().data.setPasswordUrl as string).hash.slice(1);
    await page.goto(`${base}/reset-password#${token}`);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the password').fill('something else entirely');
    await page.getByText('The two passwords differ.').waitFor();
    expect(await page.getByRole('button', { name: 'Set password' }).isDisabled()).toBe(true);
    await page.getByLabel('Repeat the password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await u.heading('Overview').waitFor();

    await signOutPerson(page, 'Olivia Owner');
    b.expectFailedRequest('/auth/sign-in', 401);
    await signInAsPerson(page, 'owner@example.com');
    await page.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();
    await signInAsPerson(page, 'owner@example.com', NEW_PASSWORD);
    await u.heading('Overview').waitFor();
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('still signs in with a project key on the same page, as before', async () => {
    await signOutPerson(page, 'Olivia Owner');
    await page.getByLabel('API key or admin token').fill(project.secretKey);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await u.heading('Overview').waitFor();
    // The header names the key's project (its name once read), and says it is a project key.
    const key = page.getByTestId('key-project');
    await key.waitFor();
    expect(await key.getAttribute('title')).toBe("Signed in with this project's API key");
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key or admin token').waitFor();
    expect(b.unexpectedErrors()).toEqual([]);
  });
});

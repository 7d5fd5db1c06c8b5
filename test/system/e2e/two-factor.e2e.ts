/**
 * Two-factor sign-in on the profile page, in Chromium: set up with the QR code and the secret shown as text,
 * confirmed with a code the test computes from that secret, the ten recovery codes shown once; then a sign-in that
 * asks for the code as a second step, and turning two-factor off with the password and a recovery code. Also the
 * profile's name and password, and a project that requires two-factor of a member without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { firstUser, invitedMember, PASSWORD, type Person } from '../../support/people.ts';
import type { TestBrowser } from './browser.ts';
import { personBrowser, signInAsPerson, signOutPerson, userMenu } from './people.ts';
import { dropTemporaryScreenshots, text, type ui } from './ui.ts';

/** The code of the TOTP secret at a time (now unless told): what an authenticator app would show. */
const codeOf = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp });

describe('two-factor sign-in in Chromium', () => {
  let t: TestApp;
  let b: TestBrowser;
  let page: Page;
  let u: ReturnType<typeof ui>;
  let owner: Person;
  let projectId: string;
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    projectId = (await t.createProject('Acme')).id;
    owner = await firstUser(t);
    let base: string;
    ({ base, b, page, u } = await personBrowser(t));
    await page.goto(`${base}/`);
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
    dropTemporaryScreenshots();
  });

  it('sets up two-factor: a QR code and the secret, a code to confirm, ten recovery codes shown once', async () => {
    await signInAsPerson(page, owner.email);
    await u.heading('Overview').waitFor();
    await userMenu(page, 'Olivia Owner', 'Profile');
    await u.heading('Profile').waitFor();
    expect(await text(page.getByTestId('two-factor-state'))).toBe('OFF');
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    const qr = page.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    secret = await text(page.getByTestId('totp-secret'));
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await u.checkLook('two-factor setup');
    await u.screenshot('two-factor-setup');

    // A wrong code is refused and nothing changes.
    b.expectFailedRequest('/auth/2fa/enable', 422);
    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByRole('alert').filter({ hasText: 'That code is not right' }).waitFor();

    await page.getByLabel('Code from the app').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    expect(await page.getByRole('list', { name: 'Recovery codes' }).count()).toBe(0);
    expect(await text(page.getByTestId('two-factor-state'))).toBe('ON');
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('asks for the code after the password at sign-in, as a second step of the same form', async () => {
    await signOutPerson(page, 'Olivia Owner');
    b.expectFailedRequest('/auth/sign-in', 401);
    await signInAsPerson(page, owner.email);
    const code = page.getByLabel('Two-factor code');
    await code.waitFor();
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    await u.checkLook('two-factor step');
    // A code is good once per 30 s step, and setting up used this step's: the app's next code (one step of drift
    // is allowed).
    await code.fill(codeOf(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await u.heading('Profile').waitFor();
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('turns two-factor off with the password and a recovery code', async () => {
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByLabel('Code or recovery code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Turn off two-factor' }).click();
    await page.getByTestId('two-factor-state').filter({ hasText: 'OFF' }).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor' }).waitFor();
    const session = (await owner.call('GET', '/auth/session')).json().data as { user: { twoFactor: boolean } };
    expect(session.user.twoFactor).toBe(false);
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('changes the name and the password on the profile', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Olivia O.');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Olivia O.', exact: true }).waitFor();

    b.expectFailedRequest('/auth/me', 422);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('another long passphrase');
    await page.getByLabel('Repeat the password').fill('another long passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'current password' }).waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed').waitFor();
    // The session goes on with its new CSRF token: a change still works.
    await page.getByLabel('Name', { exact: true }).fill('Olivia Owner');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Olivia Owner', exact: true }).waitFor();
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('offers a member without two-factor nothing but setting it up, in a project that requires it', async () => {
    await owner.call('POST', '/auth/sign-in', { payload: { email: owner.email, password: 'another long passphrase' } });
    await invitedMember(t, owner, projectId, 'vera@example.com', 'viewer');
    const res = await owner.call('PATCH', '/settings', { project: projectId, payload: { requireTwoFactor: true } });
    expect(res.statusCode, res.body).toBe(200);

    await signOutPerson(page, 'Olivia Owner');
    await signInAsPerson(page, 'vera@example.com');
    await u.heading('Profile').waitFor();
    await page.getByTestId('two-factor-required').filter({ hasText: 'Acme requires two-factor sign-in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/profile');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').count()).toBe(0);
    // The pages' calls the project refused are the only errors.
    expect(b.unexpectedErrors().every((e) => /status of 403/.test(e))).toBe(true);

    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    const veraSecret = await text(page.getByTestId('totp-secret'));
    await page.getByLabel('Code from the app').fill(codeOf(veraSecret));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    await page.getByRole('button', { name: 'I have saved them' }).click();
    // Two-factor on: the project opens.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    await u.heading('Contacts').waitFor();
  });
});

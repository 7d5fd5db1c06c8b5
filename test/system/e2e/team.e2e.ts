/**
 * The team and the audit log in Chromium: an owner invites someone (the link shown to copy, since this Herald cannot
 * mail it), the invited person joins from the link in a browser of their own with a new account, the owner changes
 * their role and withdraws another invitation; the audit log lists those changes, each unfolding to its values
 * before and after, filtered by action and paged. At a phone's width too. A member leaves, and is invited back: with an
 * account now, they sign in on the invitation, then accept it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { firstUser, PASSWORD, type Person } from '../../support/people.ts';
import type { TestBrowser } from './browser.ts';
import { openProject, personBrowser, signInAsPerson, signOutPerson, type PersonBrowser } from './people.ts';

interface Member {
  email: string;
  role: string;
}
import { dropTemporaryScreenshots, text, type ui } from './ui.ts';

describe('the team and the audit log in Chromium', () => {
  let t: TestApp;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  let u: ReturnType<typeof ui>;
  let owner: Person;
  let projectId: string;
  let inviteUrl = '';
  let ann: PersonBrowser | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    projectId = (await t.createProject('Acme')).id;
    owner = await firstUser(t);
    ({ base, b, page, u } = await personBrowser(t));
    await page.goto(`${base}/`);
    await signInAsPerson(page, owner.email);
    await u.heading('Overview').waitFor();
  });
  afterAll(async () => {
    await ann?.b.close();
    await b?.close();
    await t?.close();
    dropTemporaryScreenshots();
  });

  it('invites someone and shows the link to share, with the invitation listed', async () => {
    await u.nav('Team');
    const members = page.getByRole('table', { name: 'Members' });
    await members.getByRole('row').filter({ hasText: 'owner@example.com' }).waitFor();
    expect(await text(members.getByRole('row').filter({ hasText: 'owner@example.com' }))).toContain('(you)');
    await page.getByText('No open invitations.').waitFor();

    const form = page.getByRole('form', { name: 'Invite someone' });
    await form.getByLabel('Email').fill('ann@example.com');
    await form.getByLabel('Role').selectOption('editor');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    const shown = page.getByTestId('invite-link');
    await shown.waitFor();
    // Every project of an outbox install has the local sender, so the invitation is mailed (to the outbox) too.
    expect(await text(shown)).toContain('The link was mailed to them');
    inviteUrl = await text(shown.locator('code'));
    expect(inviteUrl).toMatch(/\/invite#.+/);
    await shown.getByRole('button', { name: 'Copy invitation link' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(inviteUrl);
    const invites = page.getByRole('table', { name: 'Open invitations' });
    await invites.getByRole('row').filter({ hasText: 'ann@example.com' }).waitFor();
    await u.checkLook('team');
    await u.screenshot('team');
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('lets the invited person join from the link with a new account, in a browser of their own', async () => {
    ann = await personBrowser(t, base);
    const p = ann.page;
    await p.goto(`${base}/invite${new URL(inviteUrl).hash}`);
    await p.getByTestId('invite-summary').filter({ hasText: 'You are invited to Acme as an editor.' }).waitFor();
    await ann.u.checkLook('invitation');
    await p.getByLabel('Your name').fill('Ann Editor');
    await p.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await p.getByLabel('Repeat the password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Create account and join' }).click();
    await ann.u.heading('Overview').waitFor();
    expect(await openProject(p)).toBe('Acme (editor)');
    // An editor's navigation has no team and no audit log.
    const nav = p.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Contacts' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Team' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect(ann.b.unexpectedErrors()).toEqual([]);
  });

  it("changes the new member's role, and withdraws another invitation", async () => {
    await page.reload();
    await u.heading('Team').waitFor();
    await page.getByText('No open invitations.').waitFor();
    const role = page.getByLabel('Role of ann@example.com');
    expect(await role.inputValue()).toBe('editor');
    await role.selectOption('admin');
    await page.getByRole('status').filter({ hasText: 'Ann Editor is now an admin.' }).waitFor();
    const listed = (await owner.call('GET', '/team', { project: projectId })).json().data as Member[];
    expect(listed.find((m) => m.email === 'ann@example.com')?.role).toBe('admin');

    const form = page.getByRole('form', { name: 'Invite someone' });
    await form.getByLabel('Email').fill('bob@example.com');
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    const invites = page.getByRole('table', { name: 'Open invitations' });
    await invites.getByRole('row').filter({ hasText: 'bob@example.com' }).waitFor();
    await page.getByRole('button', { name: 'Withdraw bob@example.com' }).click();
    await page.getByRole('button', { name: 'Yes, withdraw' }).click();
    await page.getByText('No open invitations.').waitFor();
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('lists the changes in the audit log, each unfolding to its values before and after, filtered, paged', async () => {
    await u.nav('Audit log');
    const table = page.getByRole('table', { name: 'Audit log' });
    const roleChange = table.getByRole('row').filter({ hasText: 'member.role_changed' });
    await roleChange.waitFor();
    expect(await text(roleChange)).toContain('owner@example.com');
    await roleChange.getByText('1 change').click();
    const changes = roleChange.getByRole('list', { name: 'Changes of member.role_changed' });
    const change = changes.getByRole('listitem').filter({ hasText: 'role' });
    expect([await text(change.locator('del')), await text(change.locator('ins'))]).toEqual(['editor', 'admin']);
    for (const action of ['invite.created', 'invite.revoked', 'invite.accepted', 'member.added']) {
      await table.getByRole('row').filter({ hasText: action }).first().waitFor();
    }
    await u.screenshot('audit-log');

    // One action, then every action of the invitations (a trailing dot).
    await page.getByLabel('Action').fill('member.role_changed');
    await page.getByText('1 record · page 1').waitFor();
    expect(new URL(page.url()).searchParams.get('action')).toBe('member.role_changed');
    await page.getByLabel('Action').fill('invite.');
    await page.getByText('4 records · page 1').waitFor();
    const actions = await table.locator('td[data-label="Action"] code').allTextContents();
    expect(actions.every((a) => a.startsWith('invite.'))).toBe(true);
    // The days: none of it happened before today.
    const today = (await page.evaluate(`(() => { const d = new Date(); const p = (n) => String(n).padStart(2, '0');
      return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()); })()`)) as string;
    await page.getByLabel('To', { exact: true }).fill('2001-01-01');
    await page.getByText('No entry matches these filters.').waitFor();
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.getByText('4 records · page 1').waitFor();

    // More than a page of entries: Next and Previous walk them.
    await page.getByLabel('Action').fill('');
    await page.getByLabel('To', { exact: true }).fill('');
    // The cleared filters reach the address (text filters settle after typing) before the page is reloaded.
    await page.waitForURL((url) => !url.searchParams.has('action') && !url.searchParams.has('to'));
    for (let i = 0; i < 24; i++) {
      await owner.call('PATCH', '/settings', { project: projectId, payload: { maxBounceRate: 0.05 + i / 1000 } });
    }
    await page.reload();
    const pager = page.getByRole('navigation', { name: 'record pages' });
    await pager.getByText(/page 1/).waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText(/page 2/).waitFor();
    await table.getByRole('row').filter({ hasText: 'member.role_changed' }).waitFor();
    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText(/page 1/).waitFor();
    await table.getByRole('row').filter({ hasText: 'settings.updated' }).first().getByText('1 change').click();
    await table.getByRole('listitem').filter({ hasText: 'maxBounceRate' }).first().waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await u.screenshot('audit-log-phone');
    await u.checkLook('audit log (phone)');
    await page.goto(`${base}/app/team`);
    await u.heading('Team').waitFor();
    await page.getByRole('table', { name: 'Members' }).waitFor();
    await u.screenshot('team-phone');
    // The person's menu opens on the screen.
    await page.getByRole('banner').getByRole('button', { name: 'Olivia Owner' }).click();
    const profile = page.getByRole('banner').getByRole('link', { name: 'Profile' });
    const box = (await profile.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await u.screenshot('user-menu-phone');
    await page.keyboard.press('Escape');
    expect(await profile.isVisible()).toBe(false);
    await u.checkLook('team (phone)');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('lets a member leave the project from the team page', async () => {
    const p = ann!.page;
    // Ann is an admin now: the team page is hers too (the role is read again on a reload).
    await p.reload();
    await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
    await ann!.u.heading('Team').waitFor();
    // An admin cannot touch the owner.
    expect(await p.getByLabel('Role of owner@example.com').count()).toBe(0);
    await p.getByRole('button', { name: 'Leave project' }).click();
    await p.getByRole('button', { name: 'Yes, leave' }).click();
    await ann!.u.heading('No project').waitFor();
    const listed = (await owner.call('GET', '/team', { project: projectId })).json().data as Member[];
    expect(listed.map((m) => m.email)).toEqual(['owner@example.com']);
    expect(ann!.b.unexpectedErrors()).toEqual([]);
  });

  it('lets someone with an account sign in on the invitation, then accept it', async () => {
    const payload = { email: 'ann@example.com', role: 'viewer' };
    const invite = await owner.call('POST', '/team/invites', { project: projectId, payload });
    expect(invite.statusCode, invite.body).toBe(201);
    const p = ann!.page;
    await signOutPerson(p, 'Ann Editor');
    await p.goto(`${base}/invite${new URL(invite.json().data.inviteUrl as string).hash}`);
    await p.getByTestId('invite-summary').filter({ hasText: 'You are invited to Acme as a viewer.' }).waitFor();
    await p.getByText('ann@example.com has an account: sign in, then accept.').waitFor();
    // The address is the invitation's.
    expect(await p.getByLabel('Email', { exact: true }).inputValue()).toBe('ann@example.com');
    await p.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await p.getByText('You are signed in as ann@example.com.').waitFor();
    await p.getByRole('button', { name: 'Accept invitation' }).click();
    await ann!.u.heading('Overview').waitFor();
    expect(await openProject(p)).toBe('Acme (viewer)');
    expect(ann!.b.unexpectedErrors()).toEqual([]);
  });
});

/**
 * What each role is offered, in Chromium: a viewer reads contacts, templates, campaigns and the rest with no button
 * that would create, change, delete, import or export anything; an editor works on the audience and content but is
 * offered no keys, no domain or webhook changes and no settings; an owner is offered all of it. The pages decide
 * with the role of the signed-in person in the open project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { firstUser, invitedMember } from '../../support/people.ts';
import type { TestBrowser } from './browser.ts';
import { openProject, personBrowser, signInAsPerson, signOutPerson } from './people.ts';
import { firstRunProject } from './signed-in.ts';
import { dropTemporaryScreenshots, type ui } from './ui.ts';

/** Buttons and links that would write, whatever their page: none may be offered to a viewer. */
const WRITE_WORDS = [
  'New',
  'Add',
  'Delete',
  'Import',
  'Export',
  'Save',
  'Create',
  'Remove',
  'Send',
  'Duplicate',
  'Bulk',
  'Verify',
  'Rotate',
  'Enable',
  'Disable',
  'Start',
  'Retry',
];
const WRITES = new RegExp(`^(${WRITE_WORDS.join('|')})\\b`);

/** The names of the visible buttons and button-like links of the page's main area that would write. */
async function writeControls(page: Page): Promise<string[]> {
  const main = page.locator('main');
  const names: string[] = [];
  const controls: Locator[] = [...(await main.getByRole('button').all()), ...(await main.locator('a.button').all())];
  for (const control of controls) {
    if (!(await control.isVisible())) continue;
    const name = ((await control.getAttribute('aria-label')) ?? (await control.textContent()) ?? '').trim();
    if (WRITES.test(name)) names.push(name);
  }
  return names;
}

describe('what each role is offered, in Chromium', () => {
  let t: TestApp;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  let u: ReturnType<typeof ui>;
  const ids = { contact: '', template: '', campaign: '', webhook: '', domain: '' };

  beforeAll(async () => {
    t = await createTestApp();
    // The first start's project, with its local sender domain verified (campaigns need one).
    const project = await firstRunProject(t);
    const owner = await firstUser(t);
    await invitedMember(t, owner, project.id, 'vic@example.com', 'viewer');
    await invitedMember(t, owner, project.id, 'eddie@example.com', 'editor');
    const post = async (url: string, payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url, headers: project.headers, payload });
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
      return res.json().data as { id: string };
    };
    ids.contact = (await post('/contacts', { email: 'ann@example.com', subscribed: true })).id;
    const body = '<p>Hi {{ firstName }}</p>';
    ids.template = (await post('/templates', { name: 'Welcome', subject: 'Hi', body, type: 'TRANSACTIONAL' })).id;
    const campaign = { name: 'Launch', subject: 'Launch', body, from: 'news@herald.localhost', audienceType: 'ALL' };
    ids.campaign = (await post('/campaigns', campaign)).id;
    await post('/topics', { name: 'News', defaultSubscription: 'OPT_IN' });
    const subscribed = { all: [{ field: 'subscribed', operator: 'equals', value: true }] };
    await post('/segments', { name: 'Everyone', type: 'DYNAMIC', filter: subscribed });
    ids.webhook = (await post('/webhooks', { url: 'https://hooks.example.com/herald', events: ['*'] })).id;
    const domains = await t.app.inject({ method: 'GET', url: '/domains', headers: project.headers });
    ids.domain = (domains.json().data.items as { id: string }[])[0]!.id;
    ({ base, b, page, u } = await personBrowser(t));
    await page.goto(`${base}/`);
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
    dropTemporaryScreenshots();
  });

  /** Opens a dashboard page and waits until it has loaded. */
  const open = async (path: string, heading: string | RegExp) => {
    await page.goto(`${base}/app${path}`);
    await u.heading(heading).waitFor();
    await page
      .locator('main .state-loading')
      .first()
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await page.locator('main table, main form, main .panel, main .state-empty').first().waitFor();
  };

  it('shows a viewer the contacts with no button to add, import, export, act in bulk, edit or delete', async () => {
    await signInAsPerson(page, 'vic@example.com');
    await u.heading('Overview').waitFor();
    expect(await openProject(page)).toBe('Default (viewer)');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Contacts' }).waitFor();
    for (const label of ['Team', 'Audit log', 'Request log', 'Projects']) {
      expect(await nav.getByRole('link', { name: label }).count(), label).toBe(0);
    }

    await open('/contacts', 'Contacts');
    await page.getByRole('link', { name: 'ann@example.com' }).waitFor();
    for (const name of ['Add contact', 'Import CSV', 'Export CSV', 'Bulk action']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await page.getByRole('checkbox', { name: 'Select ann@example.com' }).count()).toBe(0);
    expect(await writeControls(page)).toEqual([]);
    await u.checkLook('contacts as a viewer');

    await open(`/contacts/${ids.contact}`, 'ann@example.com');
    await page.getByRole('heading', { name: 'Topics' }).waitFor();
    expect(await page.getByLabel('Email', { exact: true }).isDisabled()).toBe(true);
    expect(await writeControls(page)).toEqual([]);
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('shows a viewer the templates, and one as written, with no button to create, save, test or delete', async () => {
    await open('/templates', 'Templates');
    await page.getByRole('link', { name: 'Welcome' }).waitFor();
    expect(await page.getByRole('link', { name: 'New template' }).count()).toBe(0);
    expect(await writeControls(page)).toEqual([]);

    await open(`/templates/${ids.template}`, 'Welcome');
    await page.getByRole('heading', { name: 'As written' }).waitFor();
    expect(await page.getByLabel('Subject', { exact: true }).isDisabled()).toBe(true);
    await u.screenshot('template-as-a-viewer');
    for (const name of ['Delete template', 'Save draft', 'Publish…', 'Send test']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await writeControls(page)).toEqual([]);
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('offers a viewer no write on any other page, and not the pages of admins', async () => {
    for (const [path, heading] of [
      ['/segments', 'Segments'],
      ['/topics', 'Topics'],
      ['/campaigns', 'Campaigns'],
      [`/campaigns/${ids.campaign}`, 'Launch'],
      ['/workflows', 'Workflows'],
      ['/domains', 'Domains'],
      [`/domains/${ids.domain}/deliverability`, /Deliverability of/],
      ['/webhooks', 'Webhooks'],
      [`/webhooks/${ids.webhook}`, /hooks\.example\.com/],
      ['/settings', 'Settings'],
    ] as const) {
      await open(path, heading);
      expect(await writeControls(page), String(path)).toEqual([]);
    }
    // Settings: read, without the keys (an admin's) and without the form's button.
    expect(await page.getByRole('heading', { name: /API keys/ }).count()).toBe(0);
    expect(await page.getByLabel('Project name').isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Require two-factor/ }).isDisabled()).toBe(true);

    await page.goto(`${base}/app/team`);
    await u.heading('Not for your role').waitFor();
    await page.goto(`${base}/app/logs`);
    await u.heading('Not for your role').waitFor();
    await page.goto(`${base}/app/audit-log`);
    await u.heading('Not for your role').waitFor();
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('offers an editor the audience and content, but no keys, domain or webhook changes, or settings', async () => {
    await signOutPerson(page, 'vic');
    await signInAsPerson(page, 'eddie@example.com');
    await u.heading('Not for your role').waitFor(); // the audit log, left open, is not an editor's
    expect(await openProject(page)).toBe('Default (editor)');

    await open('/contacts', 'Contacts');
    for (const name of ['Add contact', 'Import CSV', 'Export CSV', 'Bulk action']) {
      await page.getByRole('button', { name }).waitFor();
    }
    await open('/templates', 'Templates');
    await page.getByRole('link', { name: 'New template' }).waitFor();
    await open(`/templates/${ids.template}`, 'Welcome');
    await page.getByRole('button', { name: 'Save draft' }).waitFor();
    await page.getByTestId('preview-subject').waitFor();

    await open('/domains', 'Domains');
    expect(await page.getByRole('button', { name: 'Add domain' }).count()).toBe(0);
    await open('/webhooks', 'Webhooks');
    expect(await writeControls(page)).toEqual([]);
    await open(`/webhooks/${ids.webhook}`, /hooks\.example\.com/);
    expect(await writeControls(page)).toEqual([]);
    await open('/settings', 'Settings');
    expect(await page.getByRole('heading', { name: /API keys/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /New (secret|public) key/ }).count()).toBe(0);
    await u.screenshot('settings-as-an-editor');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Team', 'Audit log', 'Request log']) {
      expect(await nav.getByRole('link', { name: label }).count(), label).toBe(0);
    }
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('offers the owner everything: keys, domains, webhooks, settings, the team and the audit log', async () => {
    await signOutPerson(page, 'eddie');
    await signInAsPerson(page, 'owner@example.com');
    await u.heading('Settings').waitFor();
    await page.getByRole('heading', { name: /API keys/ }).waitFor();
    await page.getByRole('button', { name: 'New secret key' }).waitFor();
    await page.getByRole('button', { name: 'Save settings' }).waitFor();
    expect(await page.getByRole('checkbox', { name: /Require two-factor/ }).isDisabled()).toBe(false);
    await open('/domains', 'Domains');
    await page.getByRole('button', { name: 'Add domain' }).waitFor();
    await open(`/webhooks/${ids.webhook}`, /hooks\.example\.com/);
    await page.getByRole('button', { name: 'Send test event' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Team', 'Audit log', 'Request log']) await nav.getByRole('link', { name: label }).waitFor();
    expect(b.unexpectedErrors()).toEqual([]);
  });
});

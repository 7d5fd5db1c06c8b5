/**
 * The ids a user needs from the dashboard (template, campaign, contact, email, project), each with a copy
 * button, and the Settings page's sample request: copied off the page and run against the server, it sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../../support/app.ts';
import type { TestBrowser } from './browser.ts';
import { firstRunProject, signedInBrowser } from './signed-in.ts';
import type { ui } from './ui.ts';

describe('ids and the sample request in Chromium', () => {
  let t: TestApp;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  let u: ReturnType<typeof ui>;
  let project: { id: string; secretKey: string };
  const ids = { template: '', campaign: '', contact: '', email: '' };

  beforeAll(async () => {
    t = await createTestApp({ env: { MAIL_TRANSPORT: 'outbox' } });
    const first = await firstRunProject(t);
    project = first;
    const { post } = first;
    ids.template = (
      await post('/templates', {
        name: 'Welcome',
        subject: 'Hi',
        body: '<p>Hi</p>',
        type: 'TRANSACTIONAL',
        from: 'hello@herald.localhost',
      })
    ).id;
    ids.campaign = (
      await post('/campaigns', {
        name: 'Launch',
        subject: 'Launch',
        body: '<p>New</p>',
        from: 'hello@herald.localhost',
        audienceType: 'ALL',
      })
    ).id;
    ids.contact = (await post('/contacts', { email: 'ann@example.com' })).id;
    ids.email = (
      await post('/v1/send', {
        to: 'ann@example.com',
        from: 'hello@herald.localhost',
        subject: 'Hello',
        body: '<p>Hi</p>',
      })
    ).emails[0].email;
    ({ base, b, page, u } = await signedInBrowser(t, project.secretKey));
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const clipboard = () => page.evaluate('navigator.clipboard.readText()') as Promise<string>;

  it('shows the template id on the list and the detail page, and copies it', async () => {
    await u.nav('Templates');
    await page.getByRole('button', { name: `Copy Template ID ${ids.template}` }).click();
    expect(await clipboard()).toBe(ids.template);
    await page.getByRole('link', { name: 'Welcome' }).click();
    await u.heading('Welcome').waitFor();
    expect(await page.getByTestId('resource-id').textContent()).toBe(ids.template);
    await page.getByRole('button', { name: 'Copy Template ID' }).click();
    expect(await clipboard()).toBe(ids.template);
  });

  it.each([
    ['campaign', 'Campaign', 'Launch'],
    ['contact', 'Contact', 'ann@example.com'],
    ['email', 'Email', 'Hello'],
  ] as const)('shows the %s id on its detail page with a copy button', async (kind, noun, title) => {
    await page.goto(`${base}/app/${kind}s/${ids[kind]}`);
    await u.heading(title).waitFor();
    expect(await page.getByTestId('resource-id').textContent()).toBe(ids[kind]);
    await page.getByRole('button', { name: `Copy ${noun} ID` }).click();
    expect(await clipboard()).toBe(ids[kind]);
  });

  it('shows the project id on Settings, and a sample request from a verified domain that sends', async () => {
    await u.nav('Settings');
    expect(await page.getByTestId('project-id').textContent()).toBe(project.id);
    const sample = await page.getByTestId('sample-curl').textContent();
    await page.getByRole('button', { name: 'Copy sample request' }).click();
    expect(await clipboard()).toBe(sample);
    const url = /curl -X POST (\S+)/.exec(sample!)![1]!;
    const body = /-d '(.+)'$/s.exec(sample!)![1]!;
    expect(JSON.parse(body).from).toBe('hello@herald.localhost');
    const res = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${project.secretKey}`, 'Content-Type': 'application/json' },
      body,
    });
    expect([200, 202]).toContain(res.status);
    expect(b.unexpectedErrors()).toEqual([]);
  });
});

/**
 * The campaign page's A/B test and engagement parts, in Chromium: the variants editor saves a test, the results
 * show each variant's figures with a button to send one to the rest, human and machine figures and the links
 * table; a sending campaign can be paused (the page says so) and resumed, and a sent one followed up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';

describe('A/B tests, pause and follow-ups in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('ab.test');
    for (let i = 0; i < 20; i++) await s.api('POST', '/contacts', { email: `r${i}@dest.test`, subscribed: true });
  });
  afterAll(() => s?.close());

  it('edits variants, shows them per variant while TESTING with a button to pick one, then the results and a follow-up', async () => {
    const id = (await s.api('POST', '/campaigns', { name: 'Launch', audienceType: 'ALL', subject: 'Launch', body: '<p>Hi <a href="https://ab.test/x">x</a></p>', from: 'news@ab.test' })).id;
    const { page } = s;
    await page.goto(`${s.base}/app/campaigns/${id}`);
    await page.getByLabel('Test variants on part of the audience first').check();
    await page.getByLabel('Test share (%)').fill('50');
    await page.getByLabel('Pick the winner after').fill('1d');
    await page.locator('#v1-subject').fill('Launch, variant B');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await until(async () => ((await s.api('GET', `/campaigns/${id}`)).variants as unknown[] | null)?.length === 2, 'the test saved');
    expect((await s.api('GET', `/campaigns/${id}`)).abTest).toEqual({ testPercent: 50, metric: 'opens', waitFor: '1d' });

    await s.api('POST', `/campaigns/${id}/send`);
    await page.reload();
    await page.getByRole('heading', { name: 'Testing variants…' }).waitFor();
    const rows = page.getByRole('region', { name: 'Variants' }).locator('tbody tr');
    await until(async () => (await rows.count()) === 2, 'two variants');
    // A click a person could make: nothing (the preview beside it) may cover the button.
    await page.getByRole('button', { name: 'Send B to the rest' }).click();
    await until(async () => (await s.api('GET', `/campaigns/${id}`)).status === 'SENT', 'SENT', 30_000);
    expect((await s.api('GET', `/campaigns/${id}`)).winnerVariantId).toBe('B');
    await page.reload();
    await page.getByRole('heading', { name: 'Results' }).waitFor();
    expect(await page.getByTestId('machine-figures').textContent()).toContain('made by machines');
    await page.getByRole('region', { name: 'Links' }).getByText('No link clicked yet.').waitFor();

    await page.getByRole('button', { name: 'Follow up non-openers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Launch (follow-up to non-openers)' }).waitFor();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('pauses a sending campaign, says it is paused, and resumes it', async () => {
    const id = (await s.api('POST', '/campaigns', { name: 'Paused', audienceType: 'ALL', subject: 'P', body: '<p>Hi</p>', from: 'news@ab.test', variants: [{}, { subject: 'P2' }], abTest: { testPercent: 10, metric: 'opens', waitFor: '1d' } })).id;
    await s.api('POST', `/campaigns/${id}/send`);
    const { page } = s;
    await page.goto(`${s.base}/app/campaigns/${id}`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('paused-reason').waitFor();
    expect(await page.getByTestId('paused-reason').textContent()).toContain('nothing more is sent until you resume it');
    expect((await s.api('GET', `/campaigns/${id}`)).status).toBe('PAUSED');
    await page.getByRole('button', { name: 'Resume' }).click();
    await until(async () => (await s.api('GET', `/campaigns/${id}`)).status === 'TESTING', 'TESTING again');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

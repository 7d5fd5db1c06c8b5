/**
 * The campaign page's A/B test and engagement parts, in Chromium: the variants editor saves a test (a variant's
 * own sender address on a verified domain, the server's refusal of another shown at the form), the results
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

  it(
    'edits variants, shows them per variant while TESTING with a button to pick one, ' +
      'then the results and a follow-up',
    async () => {
      const id = (
        await s.api('POST', '/campaigns', {
          name: 'Launch',
          audienceType: 'ALL',
          subject: 'Launch',
          body: '<p>Hi <a href="https://ab.test/x">x</a></p>',
          from: 'news@ab.test',
        })
      ).id;
      const { page } = s;
      await page.goto(`${s.base}/app/campaigns/${id}`);
      await page.getByLabel('Test variants on part of the audience first').check();
      await page.getByLabel('Test share (%)').fill('50');
      await page.getByLabel('Pick the winner after').fill('1d');
      await page.locator('#v1-subject').fill('Launch, variant B');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await until(
        async () => ((await s.api('GET', `/campaigns/${id}`)).variants as unknown[] | null)?.length === 2,
        'the test saved',
      );
      expect((await s.api('GET', `/campaigns/${id}`)).abTest).toEqual({
        testPercent: 50,
        metric: 'opens',
        waitFor: '1d',
      });

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
    },
  );

  it(
    'gives a variant its own sender address on another verified domain, reads it ' +
      'back, and shows the refusal of an unverified one',
    async () => {
      await s.verifyDomain('promo.test');
      const id = (
        await s.api('POST', '/campaigns', {
          name: 'Senders',
          audienceType: 'ALL',
          subject: 'S',
          body: '<p>Hi</p>',
          from: 'news@ab.test',
        })
      ).id;
      const variant = async (i: number) =>
        ((await s.api('GET', `/campaigns/${id}`)).variants as Record<string, unknown>[])[i]!;
      const { page } = s;
      await page.goto(`${s.base}/app/campaigns/${id}`);
      await page.getByLabel('Test variants on part of the audience first').check();
      const variantB = page.getByRole('group', { name: 'A/B test' }).locator('[aria-label="Variant B"]');
      await variantB.getByLabel('From address').fill('deals@promo.test');
      await variantB.getByLabel('From name').fill('Promo team');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await until(async () => (await s.api('GET', `/campaigns/${id}`)).variants !== null, 'the test saved');
      expect(await variant(1)).toMatchObject({ id: 'B', from: 'deals@promo.test', fromName: 'Promo team' });
      // Left empty, variant A sends from the campaign's address: it has no from of its own.
      expect(await variant(0)).not.toHaveProperty('from');

      await page.reload();
      await page.locator('#v1-from').waitFor();
      expect(await page.locator('#v1-from').inputValue()).toBe('deals@promo.test');
      expect(await page.locator('#v0-from').inputValue()).toBe('');
      expect(await page.locator('#v0-from').getAttribute('placeholder')).toBe("The campaign's");

      // An address on a domain the project has not verified: the server's refusal shows at the form, nothing is saved.
      const before = await s.api('GET', `/campaigns/${id}`);
      s.b.expectFailedRequest(`/campaigns/${id}`, 403);
      await page.locator('#v1-from').fill('deals@elsewhere.test');
      await page.locator('#v1-subject').fill('Not saved');
      await page.getByRole('button', { name: 'Save draft' }).click();
      const alert = page.getByRole('form', { name: 'Campaign' }).getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        'The sender domain of deals@elsewhere.test is not verified in this project',
      );
      const after = await s.api('GET', `/campaigns/${id}`);
      expect(after.variants).toEqual(before.variants);
      expect(after.updatedAt).toBe(before.updatedAt);
      // The form keeps what was typed, to be corrected.
      expect(await page.locator('#v1-from').inputValue()).toBe('deals@elsewhere.test');
      expect(await page.getByText('Unsaved changes').count()).toBe(1);
      expect(s.b.unexpectedErrors()).toEqual([]);
    },
  );

  it('pauses a sending campaign, says it is paused, and resumes it', async () => {
    const id = (
      await s.api('POST', '/campaigns', {
        name: 'Paused',
        audienceType: 'ALL',
        subject: 'P',
        body: '<p>Hi</p>',
        from: 'news@ab.test',
        variants: [{}, { subject: 'P2' }],
        abTest: { testPercent: 10, metric: 'opens', waitFor: '1d' },
      })
    ).id;
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

/**
 * Engagement in the dashboard, in Chromium: the overview's counts by level, an engagement condition built in the
 * filter builder (saved, and read back), and a send with send-time optimisation from the campaign page, whose result
 * shows the optimised group beside the holdout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('engagement in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('eng.test');
    for (const name of ['ann', 'bob', 'cy']) await s.api('POST', '/contacts', { email: `${name}@dest.test` });
    // ann got marketing mail and opened it yesterday; bob got some for a year and never opened; cy none.
    await s.t.ctx.db.execute(sql`UPDATE contacts SET first_marketing_at = now() - interval '1 year',
      last_marketing_at = now() - interval '1 day', marketing_received = 12,
      last_human_open_at = CASE WHEN email = 'ann@dest.test' THEN now() - interval '1 day' END
      WHERE project_id = ${s.projectId}::uuid AND email IN ('ann@dest.test', 'bob@dest.test')`);
  });
  afterAll(() => s?.close());

  it('shows contacts by engagement level on the overview', async () => {
    await s.page.goto(`${s.base}/app`);
    await s.page.getByTestId('engagement-engaged').filter({ hasText: /^1$/ }).waitFor();
    expect(await text(s.page.getByTestId('engagement-dormant'))).toBe('1');
    expect(await text(s.page.getByTestId('engagement-new'))).toBe('1');
    expect(await text(s.page.getByTestId('engagement-at_risk'))).toBe('0');
  });

  it('builds a segment on an engagement condition and reads it back', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/segments/new`);
    await page.getByLabel('Name', { exact: true }).fill('Dormant');
    await page.getByRole('button', { name: 'Add condition' }).click();
    const row = page.locator('li.condition').nth(1);
    await row.getByLabel('Condition type').selectOption('engagement');
    await row.getByLabel('Engagement level').selectOption('dormant');
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.waitForURL(/\/app\/segments\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    expect(await s.api('GET', `/segments/${id}`)).toMatchObject({
      filter: { all: [{ field: 'subscribed', operator: 'equals', value: true }, { engagement: 'dormant' }] },
      memberCount: 1,
    });
    await page.reload();
    const read = page.locator('li.condition[data-kind="engagement"]');
    await read.waitFor();
    expect(await read.getByLabel('Engagement level').inputValue()).toBe('dormant');
  });

  it('sends at each recipient’s best time with a holdout, and shows both groups', async () => {
    const id = (
      await s.api('POST', '/campaigns', {
        name: 'Best time',
        audienceType: 'ALL',
        subject: 'Hello',
        body: '<p>Hi</p>',
        from: 'news@eng.test',
      })
    ).id;
    await s.page.goto(`${s.base}/app/campaigns/${id}`);
    await s.page.getByLabel('Deliver').selectOption('optimize');
    await s.page.getByLabel('Within').selectOption('24h');
    await s.page.getByLabel('Holdout %').fill('50');
    await s.page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const confirm = s.page.getByRole('alertdialog');
    expect(await text(confirm)).toContain('best hour within 24h');
    await confirm.getByRole('button', { name: 'Yes, schedule' }).click();
    const sent = await until(async () => {
      const campaign = await s.api('GET', `/campaigns/${id}`);
      return campaign.optimize ? campaign : null;
    }, 'the send under way');
    expect(sent.optimize).toEqual({ within: '24h', holdoutPercent: 50 });
    const results = s.page.getByRole('table', { name: 'Results per send-time group' });
    await results.waitFor();
    type SendTimeStats = { sendTime: { optimized: { recipients: number }; holdout: { recipients: number } } };
    const groups = (stats: SendTimeStats) => stats.sendTime.optimized.recipients + stats.sendTime.holdout.recipients;
    // The schedule is saved before the fan-out has written its recipients: wait for them.
    const stats = await until(async () => {
      const now = (await s.api('GET', `/campaigns/${id}/stats`)) as unknown as SendTimeStats;
      return groups(now) > 0 ? now : null;
    }, 'the recipients counted');
    expect(groups(stats)).toBe(3);
    expect(await text(results)).toContain('Holdout (at once)');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

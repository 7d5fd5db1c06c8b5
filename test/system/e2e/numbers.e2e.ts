/**
 * Numbers agree everywhere: a campaign sent through the outbox, one of its emails then reported delivered by
 * the provider; the campaign page and the overview show the same sent, delivered, opened… figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReportedEmail, recordDelivered } from '../../../src/modules/emails/index.ts';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

const FIGURES = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;

describe('the figures of the dashboard in Chromium', () => {
  let s: SignedIn;
  let campaignId: string;

  beforeAll(async () => {
    s = await startSignedIn('numbers.test');
    for (let i = 0; i < 4; i++) await s.api('POST', '/contacts', { email: `n${i}@dest.test`, subscribed: true });
    campaignId = (
      await s.api('POST', '/campaigns', {
        name: 'Spring',
        audienceType: 'ALL',
        subject: 'Hi',
        body: '<p>Hi</p>',
        from: 'news@numbers.test',
      })
    ).id;
    await s.api('POST', `/campaigns/${campaignId}/send`);
    await until(
      async () => (await s.api('GET', `/campaigns/${campaignId}`)).status === 'SENT',
      'campaign SENT',
      30_000,
    );
  });
  afterAll(() => s?.close());

  const campaignFigures = async () => {
    await s.page.goto(`${s.base}/app/campaigns/${campaignId}`);
    await s.page.getByRole('heading', { level: 1, name: 'Spring' }).waitFor();
    await s.page.getByTestId('stat-sent').waitFor();
    return Object.fromEntries(
      await Promise.all(FIGURES.map(async (f) => [f, await text(s.page.getByTestId(`stat-${f}`))])),
    );
  };
  const overviewFigures = async () => {
    await s.page.goto(`${s.base}/app/`);
    await s.page.getByTestId('total-sent').waitFor();
    return Object.fromEntries(
      await Promise.all(FIGURES.map(async (f) => [f, await text(s.page.getByTestId(`total-${f}`))])),
    );
  };

  const overviewTestSends = () => text(s.page.getByTestId('total-test-sends'));

  it('shows outbox mail as sent, none delivered, on both pages', async () => {
    const campaign = await campaignFigures();
    expect(campaign).toEqual({ sent: '4', delivered: '0', opened: '0', clicked: '0', bounced: '0', complained: '0' });
    expect(await overviewFigures()).toEqual(campaign);
    // With nothing reported delivered, the page says why.
    await s.page
      .getByTestId('figures-note')
      .filter({ hasText: 'Delivered counts only what a provider reports' })
      .waitFor();
  });

  it('shows a delivery the provider reported on both pages', async () => {
    const emails = (await s.api('GET', '/emails?limit=100')).items as { id: string }[];
    await s.t.ctx.db.transaction(async (tx) => {
      const row = await findReportedEmail(tx, { emailId: emails[0]!.id });
      expect(await recordDelivered(tx, row!, { source: 'ses' })).toBe(true);
    });
    const campaign = await campaignFigures();
    expect(campaign).toMatchObject({ sent: '4', delivered: '1' });
    expect(await overviewFigures()).toEqual(campaign);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('counts a test send apart, so the overview, the email log and the metrics agree', async () => {
    const test = await s.api('POST', `/campaigns/${campaignId}/test`, { emails: ['proof@numbers.test'] });
    const testId = (test.emails as { email: string }[])[0]!.email;
    await until(async () => (await s.api('GET', `/emails/${testId}`)).status === 'SENT', 'test send SENT', 30_000);

    const overview = await overviewFigures();
    expect(overview).toMatchObject({ sent: '4', delivered: '1' });
    const testSends = await overviewTestSends();
    expect(testSends).toBe('1');
    await s.page.getByTestId('figures-note').filter({ hasText: 'Test sends are counted apart' }).waitFor();
    // The recent activity lists the test send, marked as one, with a link to it.
    await s.page.locator('.recent-list li').filter({ hasText: '(test send)' }).getByRole('link').first().waitFor();

    // The email log: every sent email (SENT and DELIVERED) is one of the overview's sent or one of its test sends.
    const logged = async (status: string) => {
      await s.page.goto(`${s.base}/app/emails?status=${status}`);
      const pager = s.page.getByRole('navigation', { name: 'email pages' });
      await pager.filter({ hasText: /\d+ emails? ·/ }).waitFor();
      return Number(/(\d+) email/.exec(await text(pager))![1]);
    };
    expect((await logged('SENT')) + (await logged('DELIVERED'))).toBe(Number(overview.sent) + Number(testSends));
    // The metrics API counts the same emails as the overview (test sends left out of both).
    const metrics = await s.api('GET', '/emails/metrics');
    expect((metrics.totals as { sent: number }).sent).toBe(Number(overview.sent));
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('scales the chart to round ticks just above the most in a day, and offers 7, 30 and 90 days', async () => {
    await s.page.goto(`${s.base}/app/`);
    const chart = s.page.locator('figure.chart svg');
    await chart.waitFor();
    // Four sent in a day: the axis runs 0 … 4, not to twice the most.
    const ticks = await chart.locator('text.tick').allTextContents();
    expect(ticks.slice(0, 5)).toEqual(['0', '1', '2', '3', '4']);
    // A series with nothing in the period is still named, drawn dashed on the axis.
    await s.page.locator('.legend li').filter({ hasText: 'Opened: 0 (dashed, on the axis)' }).waitFor();
    await s.page.getByRole('group', { name: 'Period' }).getByRole('button', { name: '7 days' }).click();
    await s.page.getByRole('heading', { name: 'Email activity, last 7 days' }).waitFor();
    await s.page.getByRole('img', { name: /Emails per day, last 7 days/ }).waitFor();
    expect(await text(s.page.getByTestId('total-sent'))).toBe('4');
    await s.page.getByRole('group', { name: 'Period' }).getByRole('button', { name: '90 days' }).click();
    await s.page.getByRole('heading', { name: 'Email activity, last 90 days' }).waitFor();
  });

  it('lists the first steps, ticking those the data shows done, each a link', async () => {
    await s.page.goto(`${s.base}/app/`);
    const steps = s.page.getByRole('region', { name: 'Getting started' });
    const step = (name: string) => steps.locator('li').filter({ hasText: name });
    await step('Verify a sender domain').filter({ hasText: '(done)' }).waitFor();
    await step('Send a first email').filter({ hasText: '(done)' }).waitFor();
    await step('Add or import contacts').filter({ hasText: '(done)' }).waitFor();
    await step('Create a campaign').filter({ hasText: '(done)' }).waitFor();
    await step('Add a webhook').filter({ hasText: '(to do)' }).waitFor();
    await step('Give the project a name').filter({ hasText: '(done)' }).waitFor();
    await step('Add a webhook').getByRole('link').click();
    await s.page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  });
});

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

  it('shows outbox mail as sent, none delivered, on both pages', async () => {
    const campaign = await campaignFigures();
    expect(campaign).toEqual({ sent: '4', delivered: '0', opened: '0', clicked: '0', bounced: '0', complained: '0' });
    expect(await overviewFigures()).toEqual(campaign);
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
});

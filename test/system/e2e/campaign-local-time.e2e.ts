/**
 * Scheduling a campaign at each recipient's local time from its page, in Chromium: the Deliver choice swaps the
 * date-time field for a time and a date, the confirmation says what happens, and the page then shows the schedule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('a campaign at local time in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('local.test');
    await s.api('POST', '/contacts', { email: 'ann@dest.test', subscribed: true, data: { timezone: 'Europe/Berlin' } });
  });
  afterAll(() => s?.close());

  it("schedules it for 09:00 in each recipient's time zone, then shows that time", async () => {
    const id = (
      await s.api('POST', '/campaigns', {
        name: 'Morning',
        audienceType: 'ALL',
        subject: 'Morning',
        body: '<p>Hi</p>',
        from: 'news@local.test',
      })
    ).id;
    const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await s.page.goto(`${s.base}/app/campaigns/${id}`);
    await s.page.getByLabel('Send at (your time)').waitFor();
    await s.page.getByLabel('Deliver').selectOption('local');
    expect(await s.page.getByLabel('Send at (your time)').count()).toBe(0);
    await s.page.getByLabel('Time', { exact: true }).fill('09:00');
    await s.page.getByLabel('Date', { exact: true }).fill(date);
    await s.page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const confirm = s.page.getByRole('alertdialog');
    expect(await text(confirm)).toContain('in each recipient’s time zone');
    await confirm.getByRole('button', { name: 'Yes, schedule' }).click();
    const saved = await until(async () => {
      const campaign = await s.api('GET', `/campaigns/${id}`);
      return campaign.status === 'SCHEDULED' ? campaign : null;
    }, 'the campaign SCHEDULED');
    expect(saved.sendAt).toEqual({ localTime: '09:00', date });
    await until(async () => (await text(s.page.getByTestId('scheduled-at'))).includes('09:00'), 'the schedule shown');
    expect(await text(s.page.getByTestId('scheduled-at'))).toContain('local time');
  });

  it('pauses a send under way by time zone and resumes it waiting for the zones still to come', async () => {
    await s.api('POST', '/contacts', {
      email: 'kiri@dest.test',
      subscribed: true,
      data: { timezone: 'Pacific/Kiritimati' },
    });
    await s.api('POST', '/contacts', {
      email: 'pago@dest.test',
      subscribed: true,
      data: { timezone: 'Pacific/Pago_Pago' },
    });
    const id = (
      await s.api('POST', '/campaigns', {
        name: 'Rolling',
        audienceType: 'ALL',
        subject: 'Rolling',
        body: '<p>Hi</p>',
        from: 'news@local.test',
      })
    ).id;
    // Kiritimati (UTC+14) had this time an hour ago; Pago Pago (UTC−11) has it 25 hours from now.
    const wall = new Date(Date.now() + 13 * 3_600_000).toISOString();
    await s.api('POST', `/campaigns/${id}/send`, {
      sendAt: { date: wall.slice(0, 10), localTime: wall.slice(11, 16) },
    });
    await until(async () => (await s.api('GET', `/campaigns/${id}`)).sentAt !== null, 'the send under way');
    await s.page.goto(`${s.base}/app/campaigns/${id}`);
    await s.page.getByTestId('local-time-waiting').waitFor();
    await s.page.getByRole('button', { name: 'Pause', exact: true }).click();
    await s.page.getByTestId('paused-reason').waitFor();
    expect((await s.api('GET', `/campaigns/${id}`)).status).toBe('PAUSED');
    await s.page.getByRole('button', { name: 'Resume', exact: true }).click();
    await s.page.getByTestId('local-time-waiting').waitFor();
    expect(await text(s.page.getByTestId('campaign-status'))).toContain('SCHEDULED');
  });
});

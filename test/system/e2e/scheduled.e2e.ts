/**
 * A scheduled email in the dashboard: its page shows Cc, Bcc, tags and the time; Reschedule moves it and Cancel
 * cancels it; the list filters SCHEDULED emails and shows their tags.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('a scheduled email in Chromium', () => {
  let s: SignedIn;
  let id: string;

  beforeAll(async () => {
    s = await startSignedIn('later.test');
    const sent = await s.api('POST', '/v1/send', {
      to: 'ann@dest.test',
      cc: 'bo@dest.test',
      bcc: 'cy@dest.test',
      from: 'hi@later.test',
      subject: 'Later on',
      body: '<p>Later</p>',
      tags: [{ name: 'kind', value: 'reminder' }],
      scheduledAt: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    });
    id = (sent.emails as { email: string }[])[0]!.email;
    await s.api('POST', '/v1/send', {
      to: 'now@dest.test',
      from: 'hi@later.test',
      subject: 'Right now',
      body: '<p>Now</p>',
    });
  });
  afterAll(() => s?.close());

  it('lists it under the SCHEDULED filter with its tag', async () => {
    await s.page.goto(`${s.base}/app/emails?status=SCHEDULED`);
    const row = s.page.getByRole('row', { name: /ann@dest\.test/ });
    await row.waitFor();
    expect(await text(row)).toContain('kind: reminder');
    expect(await s.page.getByRole('row', { name: /now@dest\.test/ }).count()).toBe(0);
  });

  it('shows cc, bcc, tags and the time; reschedules, then cancels', async () => {
    await s.page.goto(`${s.base}/app/emails/${id}`);
    await s.page.getByRole('heading', { level: 1, name: 'Later on' }).waitFor();
    const details = await text(s.page.locator('dl.details').first());
    expect(details).toContain('bo@dest.test');
    expect(details).toContain('cy@dest.test');
    expect(details).toContain('kind: reminder');
    await s.page.getByTestId('email-scheduled-at').waitFor();

    const before = (await s.api('GET', `/emails/${id}`)).scheduledAt as string;
    // Three days on, as a datetime-local field reads the browser's time.
    const local = await s.page.evaluate(() => {
      const d = new Date(Date.now() + 3 * 86_400_000);
      return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    });
    await s.page.getByLabel('Send at (your time)').fill(local);
    await s.page.getByRole('button', { name: 'Reschedule' }).click();
    const moved = await until(async () => {
      const at = (await s.api('GET', `/emails/${id}`)).scheduledAt as string;
      return at !== before ? at : null;
    }, 'the new time saved');
    expect(Date.parse(moved)).toBeGreaterThan(Date.parse(before));

    await s.page.getByRole('button', { name: 'Cancel email' }).click();
    await s.page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await until(async () => (await s.api('GET', `/emails/${id}`)).status === 'CANCELLED', 'the email CANCELLED');
    await s.page.getByRole('button', { name: 'Cancel email' }).waitFor({ state: 'detached' });
  });
});

/**
 * Snooze and the frequency cap in Chromium: a contact's page pauses its marketing email until a day and resumes it;
 * the project settings turn a frequency cap on, show it after a reload, and turn it off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('snooze and frequency cap in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('snooze.test');
  });
  afterAll(() => s?.close());

  it("pauses a contact's marketing email until a day from its page, and resumes it", async () => {
    const contact = (await s.api('POST', '/contacts', { email: 'sleepy@dest.test' })) as { id: string };
    const { page } = s;
    await page.goto(`${s.base}/app/contacts/${contact.id}`);
    await page.getByRole('heading', { level: 1, name: 'sleepy@dest.test' }).waitFor();
    const day = page.getByLabel('Pause marketing email until');
    // The field offers at most a year ahead, as the server takes.
    expect(await day.getAttribute('max')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const inAMonth = new Date(Date.now() + 30 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const chosen = `${inAMonth.getFullYear()}-${pad(inAMonth.getMonth() + 1)}-${pad(inAMonth.getDate())}`;
    await day.fill(chosen);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const paused = page.getByTestId('snoozed-until');
    await paused.waitFor();
    expect(await text(paused)).toMatch(/^Marketing email paused until .+\. Transactional email still goes\.$/);
    const stored = (await s.api('GET', `/contacts/${contact.id}`)).snoozedUntil as string;
    expect(new Date(stored).getTime()).toBe(new Date(`${chosen}T00:00:00`).getTime());
    // This dashboard is signed in with a key: the change is the key's (source api); a signed-in person's is dashboard.
    expect((await s.api('GET', `/events?contactId=${contact.id}&name=contact.snoozed`)).items).toMatchObject([
      { data: { source: 'api' } },
    ]);

    await page.reload();
    await page.getByTestId('snoozed-until').waitFor();
    await page.getByRole('button', { name: 'Resume now' }).click();
    await page.getByLabel('Pause marketing email until').waitFor();
    expect((await s.api('GET', `/contacts/${contact.id}`)).snoozedUntil).toBeNull();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('turns a frequency cap on in the project settings, keeps it over a reload, and turns it off', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/settings`);
    const form = page.getByRole('form', { name: 'Project settings' });
    const on = form.getByLabel('Limit the marketing email each contact gets');
    await on.waitFor();
    expect(await on.isChecked()).toBe(false);
    await on.check();
    await form.getByLabel('At most this many emails').fill('2');
    await form.getByLabel('… in any this many days').fill('10');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await s.api('GET', '/settings')).frequencyCap).toEqual({ max: 2, per: '10d' });

    await page.reload();
    const max = page.getByLabel('At most this many emails');
    await until(async () => (await max.count()) === 1 && (await max.inputValue()) === '2', 'the saved cap shown');
    expect(await page.getByLabel('… in any this many days').inputValue()).toBe('10');

    await page.getByLabel('Limit the marketing email each contact gets').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .getByRole('form', { name: 'Project settings' })
      .getByRole('status')
      .filter({ hasText: 'Saved.' })
      .waitFor();
    expect((await s.api('GET', '/settings')).frequencyCap).toBeNull();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

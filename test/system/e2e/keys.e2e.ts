/**
 * The keys panel and a domain's tracking host in Chromium, in a browser behind UTC (where midnight UTC of today has
 * always passed): a sending key held to one sender domain that expires at the end of the day chosen in the browser's
 * zone, and the CNAME record a tracking host asks for, shown and then verified.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text, ui } from './ui.ts';

const ZONE = 'America/Los_Angeles';

/** An instant as `YYYY-MM-DD HH:MM:SS.mmm` in ZONE (worked out here, not by the dashboard). */
function inZone(instant: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      fractionalSecondDigits: 3,
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const time = `${parts.hour}:${parts.minute}:${parts.second}.${parts.fractionalSecond}`;
  return `${parts.year}-${parts.month}-${parts.day} ${time}`;
}

describe('keys and tracking host in Chromium', () => {
  let s: SignedIn;
  let domainId: string;

  beforeAll(async () => {
    s = await startSignedIn('keys.test', { timezoneId: ZONE });
    domainId = (await s.api('GET', '/domains')).items[0]!.id as string;
  });
  afterAll(async () => s?.close());

  it(
    'creates a sending key held to one sender domain that lasts to the end of today ' + "in the browser's zone",
    async () => {
      const { page } = s;
      await ui(page).nav('Settings');
      const today = inZone(new Date()).slice(0, 10);
      const expires = page.getByLabel('Expires (optional)');
      // Days before today cannot be picked.
      expect(await expires.getAttribute('min')).toBe(today);
      await page.getByLabel('Key name').fill('CI deploys');
      await page.getByLabel('Scope').selectOption('sending');
      await page.getByRole('group', { name: 'Sender domains' }).getByLabel('keys.test').check();
      await expires.fill(today);
      await page.getByRole('button', { name: 'New secret key' }).click();
      const key = await text(page.getByTestId('new-key'));
      expect(key).toMatch(/^sk_/);

      const listed = (await s.api('GET', '/api-keys')).items.find((k) => k.name === 'CI deploys')!;
      expect(listed).toMatchObject({ scope: 'sending', domainIds: [domainId], prefix: key.slice(0, 10) });
      const expiresAt = new Date(String(listed.expiresAt));
      expect(inZone(expiresAt)).toBe(`${today} 23:59:59.999`);
      const row = page.getByRole('row').filter({ hasText: 'CI deploys' });
      expect(await text(row)).toMatch(/sending.*keys\.test/);

      // The key works today, from its domain.
      const sent = await s.t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: { authorization: `Bearer ${key}` },
        payload: { to: 'ann@dest.test', from: 'app@keys.test', subject: 'Hi', body: '<p>Hi</p>' },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(s.b.unexpectedErrors()).toEqual([]);
    },
  );

  it('adds a tracking host on the domain page, shows its CNAME record, and verifies it', async () => {
    const { page } = s;
    await ui(page).nav('Domains');
    await page.getByRole('link', { name: 'keys.test', exact: true }).click();
    await ui(page).heading('keys.test').waitFor();
    await page.getByLabel('Host for links and the open pixel').fill('links.keys.test');
    await page.getByRole('button', { name: 'Save tracking host' }).click();
    const record = page.locator('li.record[data-purpose="TRACKING"]');
    await record.waitFor();
    expect(await text(record.locator('dl'))).toMatch(
      /Type\s*CNAME\s*Name\s*links\.keys\.test.*Value\s*mail\.herald\.test/s,
    );
    expect(await text(page.getByTestId('tracking-state'))).toMatch(/^Publish the CNAME record below/);

    s.dns.setRecords('links.keys.test', [{ type: 'CNAME', target: 'mail.herald.test' }]);
    await page.getByRole('button', { name: 'Verify DNS records' }).click();
    await page
      .getByTestId('tracking-state')
      .filter({ hasText: 'Links in mail from keys.test use https://links.keys.test.' })
      .waitFor();
    expect(await text(record.locator('.record-head'))).toContain('VERIFIED');
    expect((await s.api('GET', `/domains/${domainId}`)).trackingVerified).toBe(true);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

/**
 * A campaign the reputation guard paused, in Chromium: an A/B test whose share bounced past the project's limit
 * refuses to send a winner to the rest, and the page says why ("Paused by the reputation guard: …"); a link a
 * person clicked is a row of the Links table; Resume goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { sql } from 'drizzle-orm';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';

const browser =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, ' +
  'like Gecko) Version/17.0 Safari/605.1.15';

describe('a campaign paused by the reputation guard, in Chromium', () => {
  let s: SignedIn;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await startSignedIn('guard.test', { env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: sink.url } });
    // Half of 400 is the test share: the 200 handoffs the guard needs. A third of the addresses do not exist.
    await upsertContacts({
      db: s.t.ctx.db,
      consent: { type: 'api' },
      projectId: s.projectId,
      rows: Array.from({ length: 400 }, (_, i) => ({ email: `r${i}@dest.test`, defaultSubscribed: true })),
    });
    for (let i = 0; i < 400; i += 3)
      sink.failRecipient(`r${i}@dest.test`, { code: 550, message: '5.1.1 No such user' });
  });
  afterAll(async () => {
    await s?.close();
    await sink?.close();
  });

  it("shows the guard's reason after a refused winner, a clicked link in the Links table, and resumes", async () => {
    const id = (
      await s.api('POST', '/campaigns', {
        name: 'Bad list',
        audienceType: 'ALL',
        subject: 'Offer',
        from: 'news@guard.test',
        body: '<p><a href="https://guard.test/offer">offer</a></p><a href="{{unsubscribeUrl}}">u</a>',
        variants: [{}, { subject: 'Offer B' }],
        abTest: { testPercent: 50, metric: 'clicks', waitFor: '1d' },
      })
    ).id;
    await s.api('POST', `/campaigns/${id}/send`);
    await until(
      async () => (await s.api('GET', `/campaigns/${id}/stats`)).sent === 200,
      'the test share handed over',
      60_000,
    );
    // A person clicks the offer in one of the share's emails, a minute after its handoff.
    await s.t.ctx.db.execute(
      sql`UPDATE emails SET sent_at = now() - interval '1 minute' WHERE source_id = ${id}::uuid`,
    );
    const html = (await simpleParser(sink.messages[0]!.raw)).html as string;
    const link = /https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"/.exec(html)![1]!;
    expect((await s.t.app.inject({ method: 'GET', url: link, headers: { 'user-agent': browser } })).statusCode).toBe(
      302,
    );

    const { page } = s;
    await page.goto(`${s.base}/app/campaigns/${id}`);
    await page.getByRole('heading', { name: 'Testing variants…' }).waitFor();
    s.b.expectFailedRequest(`/campaigns/${id}/winner`, 409);
    await page.getByRole('button', { name: 'Send B to the rest' }).click();
    // The guard judged the share instead: nothing went to the rest, and the page says why.
    const reason = page.getByTestId('paused-reason');
    await reason.waitFor();
    expect(await reason.textContent()).toMatch(
      /^Paused by the reputation guard: Bounce rate \d+\.\d\d% passed the limit of 8\.00% after 200 emails\.$/,
    );
    expect((await s.api('GET', `/campaigns/${id}`)).status).toBe('PAUSED');
    expect((await s.api('GET', `/campaigns/${id}/stats`)).recipients).toBe(200);

    const row = page.getByRole('region', { name: 'Links' }).locator('tbody tr');
    await until(async () => (await row.count()) === 1, 'one link in the table');
    expect((await row.locator('td').allTextContents()).map((text) => text.trim())).toEqual([
      'https://guard.test/offer',
      '1',
      '1',
      '1',
    ]);

    sink.clearFailures();
    await page.getByRole('button', { name: 'Resume' }).click();
    await until(async () => (await s.api('GET', `/campaigns/${id}`)).status === 'TESTING', 'TESTING again');
    await page.getByRole('heading', { name: 'Testing variants…' }).waitFor();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});

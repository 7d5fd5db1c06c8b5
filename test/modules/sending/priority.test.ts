import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

/** The campaign's audience: 20 s of mail at the paced rate. */
const AUDIENCE = 40;

describe('transactional mail goes ahead of campaign mail', () => {
  let m: MailFixture;

  beforeAll(async () => {
    m = await startMailFixture({ env: { SEND_RATE_PER_SECOND: '2' } });
  });
  afterAll(() => m.close());

  it('sends a transactional email queued after a paced campaign before most of that campaign', async () => {
    const sender = await m.verifiedDomain('example.test');
    const req = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      m.t.app.inject({ method, url, headers: sender.auth, ...(payload ? { payload } : {}) });
    for (let i = 0; i < AUDIENCE; i++) await req('POST', '/contacts', { email: `fan${i}@dest.test` });
    const campaign = await req('POST', '/campaigns', {
      name: 'Big',
      subject: 'News',
      body: '<p>News</p>',
      from: 'news@example.test',
      audienceType: 'ALL',
    });
    const campaignId = campaign.json().data.id;
    expect((await req('POST', `/campaigns/${campaignId}/send`)).statusCode).toBe(202);
    // Wait until the whole audience is queued, so the transactional email really comes last.
    const fannedOut = async () => (await req('GET', `/emails?sourceId=${campaignId}`)).json().data.total === AUDIENCE;
    await until(fannedOut, 'the campaign fanned out', 30_000, 50);
    const tx = await req('POST', '/v1/send', {
      to: 'vip@dest.test',
      from: 'hello@example.test',
      subject: 'Password reset',
      body: 'b',
    });
    await m.waitForStatus(sender.auth, tx.json().data.emails[0].email, ['SENT'], 60_000);
    const order = m.sink.messages.map((msg) => msg.to[0]);
    const position = order.indexOf('vip@dest.test');
    // At 2 per second the campaign takes 20 s; queued last, the transactional email still leaves before most of it (in
    // order, only the batch in flight and what a busy machine's loop hands over meanwhile go first).
    expect(position).toBeGreaterThanOrEqual(0);
    expect(position).toBeLessThan(AUDIENCE / 2);
  });
});

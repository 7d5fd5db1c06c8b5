// The project's `tracking` setting decides, over what each send asks, whether the mail that leaves carries the open
// pixel and click redirects: NONE never, MARKETING_ONLY (default) marketing mail, ALL everything unless told not to.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Sender = Awaited<ReturnType<MailFixture['verifiedDomain']>>;

describe('tracking modes', () => {
  let m: MailFixture;
  let serial = 0;

  beforeAll(async () => {
    m = await startMailFixture();
  });
  afterAll(() => m.close());

  /** A project in `mode` with a verified domain and a marketing template. */
  async function projectIn(mode: string | null): Promise<Sender & { marketingTemplate: string }> {
    const sender = await m.verifiedDomain(`t${++serial}.example.test`);
    if (mode)
      expect(
        (await m.t.app.inject({ method: 'PATCH', url: '/settings', headers: sender.auth, payload: { tracking: mode } }))
          .statusCode,
      ).toBe(200);
    const template = await m.t.app.inject({
      method: 'POST',
      url: '/templates',
      headers: sender.auth,
      payload: {
        name: 'News',
        subject: 'News',
        body: '<p>Read <a href="https://example.com/news">the news</a></p>',
        type: 'MARKETING',
        from: `news@t${serial}.example.test`,
      },
    });
    expect(template.statusCode, template.body).toBe(201);
    return { ...sender, marketingTemplate: template.json().data.id };
  }

  /** Sends one message and answers whether the delivered mail has the open pixel and a click redirect. */
  async function tracked(
    sender: Sender,
    payload: Record<string, unknown>,
  ): Promise<{ pixel: boolean; clicks: boolean }> {
    const to = `reader${++serial}@dest.test`;
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to, ...payload },
    });
    expect(res.statusCode, res.body).toBe(200);
    const html = String((await simpleParser((await m.sink.waitForRecipient(to)).raw)).html);
    expect(html).toContain('the news');
    return { pixel: html.includes('/t/o/'), clicks: html.includes('/t/c/') };
  }

  const transactional = (sender: Sender, extra: { from: string; tracking?: boolean }) =>
    tracked(sender, {
      subject: 'Receipt',
      body: '<p>See <a href="https://example.com/news">the news</a></p>',
      ...extra,
    });

  it('MARKETING_ONLY (the default): marketing mail is tracked, transactional mail only when a send asks', async () => {
    const p = await projectIn(null);
    const from = `app@t${serial}.example.test`;
    expect(await tracked(p, { template: p.marketingTemplate, subscribed: true })).toEqual({
      pixel: true,
      clicks: true,
    });
    expect(await transactional(p, { from })).toEqual({ pixel: false, clicks: false });
    expect(await transactional(p, { from, tracking: true })).toEqual({ pixel: true, clicks: true });
    expect(await tracked(p, { template: p.marketingTemplate, subscribed: true, tracking: false })).toEqual({
      pixel: false,
      clicks: false,
    });
  });

  it('NONE: nothing is tracked, even a send that asks for it', async () => {
    const p = await projectIn('NONE');
    const from = `app@t${serial}.example.test`;
    expect(await tracked(p, { template: p.marketingTemplate, subscribed: true })).toEqual({
      pixel: false,
      clicks: false,
    });
    expect(await transactional(p, { from, tracking: true })).toEqual({ pixel: false, clicks: false });
  });

  it('ALL: transactional mail is tracked too, unless a send says tracking: false', async () => {
    const p = await projectIn('ALL');
    const from = `app@t${serial}.example.test`;
    expect(await transactional(p, { from })).toEqual({ pixel: true, clicks: true });
    expect(await transactional(p, { from, tracking: false })).toEqual({ pixel: false, clicks: false });
    expect(await tracked(p, { template: p.marketingTemplate, subscribed: true })).toEqual({
      pixel: true,
      clicks: true,
    });
  });

  it('NONE holds for campaigns as well', async () => {
    const p = await projectIn('NONE');
    const from = `news@t${serial}.example.test`;
    const to = `member${++serial}@dest.test`;
    await m.t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: p.auth,
      payload: { email: to, subscribed: true },
    });
    const campaign = await m.t.app.inject({
      method: 'POST',
      url: '/campaigns',
      headers: p.auth,
      payload: {
        name: 'Spring',
        subject: 'Spring',
        body: '<p>Read <a href="https://example.com/news">the news</a></p>',
        from,
        audienceType: 'ALL',
      },
    });
    expect(campaign.statusCode, campaign.body).toBe(201);
    const sent = await m.t.app.inject({
      method: 'POST',
      url: `/campaigns/${campaign.json().data.id}/send`,
      headers: p.auth,
      payload: {},
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const html = String((await simpleParser((await m.sink.waitForRecipient(to)).raw)).html);
    expect(html).toContain('the news');
    expect(html).not.toContain('/t/o/');
    expect(html).not.toContain('/t/c/');
  });
});

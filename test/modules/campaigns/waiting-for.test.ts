// A campaign whose mail waits, sent end to end through the engine: over its sender domain's warm-up cap it stays
// SENDING with `waitingFor: "warmup"` (the rest goes the next UTC day); over a provider's rate per hour it shows
// `waitingFor: "throttle"`. A campaign whose mail waits for neither shows null, on GET and in the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

describe('what a sending campaign waits for', () => {
  let m: MailFixture;

  beforeAll(async () => {
    m = await startMailFixture();
  });
  afterAll(() => m.close());

  const req = (auth: Auth, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  /** A project sending from `domain` (verified, with `limits` applied) to three contacts at `recipients`. */
  async function sender(domain: string, limits: Record<string, unknown>, recipients: string) {
    const { auth, domainId } = await m.verifiedDomain(domain);
    const patched = await req(auth, 'PATCH', `/domains/${domainId}`, limits);
    expect(patched.statusCode, patched.body).toBe(200);
    for (const n of [1, 2, 3]) {
      const res = await req(auth, 'POST', '/contacts', { email: `p${n}@${recipients}` });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    const created = await req(auth, 'POST', '/campaigns', {
      name: `News from ${domain}`,
      subject: 'News',
      body: '<p>News</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    expect(created.statusCode, created.body).toBe(201);
    return { auth, campaignId: created.json().data.id as string };
  }

  const view = async (auth: Auth, id: string) => (await req(auth, 'GET', `/campaigns/${id}`)).json().data;
  const delivered = (recipients: string) => m.sink.messages.filter((msg) => msg.to[0]!.endsWith(`@${recipients}`));

  it('shows null before the send, and "warmup" while the rest waits for the next day of the warm-up', async () => {
    const { auth, campaignId } = await sender(
      'warm.example.test',
      { warmup: { enabled: true, schedule: [1, 2] } },
      'warm-dest.test',
    );
    expect(await view(auth, campaignId)).toMatchObject({ status: 'DRAFT', waitingFor: null });
    expect((await req(auth, 'POST', `/campaigns/${campaignId}/send`)).statusCode).toBe(202);
    const waiting = await until(
      async () => {
        const c = await view(auth, campaignId);
        return c.waitingFor === 'warmup' && c;
      },
      'waitingFor warmup',
      30_000,
    );
    expect(waiting.status).toBe('SENDING');
    // The one message the cap or the rate let through is handed over; the others stay held.
    await until(() => delivered('warm-dest.test').length >= 1, 'one message delivered', 30_000);
    expect(delivered('warm-dest.test')).toHaveLength(1);
    const list = (await req(auth, 'GET', '/campaigns')).json().data.items as { id: string; waitingFor: unknown }[];
    expect(list.find((c) => c.id === campaignId)?.waitingFor).toBe('warmup');
  });

  it('shows "throttle" while the rest waits its turn under the provider\'s rate', async () => {
    const { auth, campaignId } = await sender('slow.example.test', { providerLimits: { other: 1 } }, 'slow-dest.test');
    expect((await req(auth, 'POST', `/campaigns/${campaignId}/send`)).statusCode).toBe(202);
    const waiting = await until(
      async () => {
        const c = await view(auth, campaignId);
        return c.waitingFor === 'throttle' && c;
      },
      'waitingFor throttle',
      30_000,
    );
    expect(waiting.status).toBe('SENDING');
    // The one message the cap or the rate let through is handed over; the others stay held.
    await until(() => delivered('slow-dest.test').length >= 1, 'one message delivered', 30_000);
    expect(delivered('slow-dest.test')).toHaveLength(1);
    const list = (await req(auth, 'GET', '/campaigns')).json().data.items as { id: string; waitingFor: unknown }[];
    expect(list.find((c) => c.id === campaignId)?.waitingFor).toBe('throttle');
  });

  it('shows null for a campaign whose mail waits for nothing, once it is sent', async () => {
    const { auth, campaignId } = await sender('free.example.test', { providerLimits: { gmail: 5 } }, 'free-dest.test');
    expect((await req(auth, 'POST', `/campaigns/${campaignId}/send`)).statusCode).toBe(202);
    const sent = await until(
      async () => {
        const c = await view(auth, campaignId);
        return c.status === 'SENT' && c;
      },
      'SENT',
      30_000,
    );
    expect(sent.waitingFor).toBeNull();
    expect(delivered('free-dest.test')).toHaveLength(3);
  });
});

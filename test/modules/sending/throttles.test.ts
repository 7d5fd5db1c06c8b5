/**
 * Provider throttles and warm-up, through the engine to a real SMTP sink: a configured rate per hour spaces the
 * domain's mail to that provider (what does not fit waits in the queue, never dropped or failed); a "slow down"
 * deferral (4.7.28) halves the pair's rate and the throughput view says THROTTLED; a warming domain holds marketing
 * beyond the day's cap and never holds transactional mail, which still counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startScriptedSmtp, type ScriptedSmtp } from '../../support/scripted-smtp.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

describe('provider throttles and warm-up in the engine', () => {
  let m: MailFixture;
  let relay: ScriptedSmtp;

  beforeAll(async () => {
    m = await startMailFixture({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    relay = await startScriptedSmtp();
    m.dns.setRecords('gmail-hosted.test', [{ type: 'MX', exchange: 'aspmx.l.google.com', priority: 1 }]);
  });
  afterAll(async () => {
    await m?.close();
    await relay?.close();
  });

  const req = (auth: Auth, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const send = async (auth: Auth, from: string, to: string[], extra: Record<string, unknown> = {}) => {
    const res = await req(auth, 'POST', '/v1/send', { to, from, subject: 's', body: '<p>b</p>', ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.emails as { email: string }[]).map((e) => e.email);
  };

  it('spaces mail to a provider by its configured rate; what does not fit waits its turn', async () => {
    const { auth, domainId } = await m.verifiedDomain('paced.example.test');
    // 3,600 an hour: one a second.
    const limited = await req(auth, 'PATCH', `/domains/${domainId}`, { providerLimits: { other: 3600 } });
    expect(limited.statusCode, limited.body).toBe(200);
    // A first message goes out once the workers have heard of the change (their domain cache is cleared by it).
    const [first] = await send(auth, 'hi@paced.example.test', ['first@elsewhere.test']);
    await m.waitForStatus(auth, first!, ['SENT']);
    const to = Array.from({ length: 9 }, (_, i) => `p${i}@paced-dest.test`);
    const ids = await send(auth, 'hi@paced.example.test', to);
    for (const id of ids) await m.waitForStatus(auth, id, ['SENT'], 60_000);
    const times = m.sink.messages
      .filter((msg) => msg.to[0]!.endsWith('@paced-dest.test'))
      .map((msg) => msg.arrivedAt)
      .sort((x, y) => x - y);
    expect(times).toHaveLength(9);
    // One a second: a message may go out a little after its slot (its build took longer), never before, so no
    // window of a second holds three, and the nine take at least seven seconds.
    for (let i = 2; i < times.length; i++) expect(times[i]! - times[i - 2]!).toBeGreaterThan(1500);
    expect(times[8]! - times[0]!).toBeGreaterThan(7000);
    const throughput = (await req(auth, 'GET', `/domains/${domainId}/throughput`)).json().data as {
      provider: string;
      allowedPerHour: number | null;
      sentLastHour: number;
    }[];
    expect(throughput.find((r) => r.provider === 'other')).toMatchObject({ allowedPerHour: 3600 });
    await until(
      async () =>
        ((await req(auth, 'GET', `/domains/${domainId}/throughput`)).json().data as typeof throughput).find(
          (r) => r.provider === 'other',
        )!.sentLastHour === 10,
      'the counts written',
    );
  });

  it('halves the rate after a "slow down" deferral and shows the pair THROTTLED; the mail arrives once', async () => {
    const { auth, domainId } = await m.verifiedDomain('slowed.example.test');
    const limited = await req(auth, 'PATCH', `/domains/${domainId}`, { providerLimits: { gmail: 36000 } });
    expect(limited.statusCode, limited.body).toBe(200);
    const created = await req(auth, 'POST', '/transports', { name: 'relay', type: 'smtp', config: relay.config });
    const routed = await req(auth, 'PUT', '/routing', {
      rules: [{ match: {}, transportId: created.json().data.id }],
      defaultTransportId: 'default',
    });
    expect(routed.statusCode, routed.body).toBe(200);
    await relay.set('deferRcpt', '450 4.7.28 Our system has detected an unusual rate of unsolicited mail');
    const to = ['g1@gmail-hosted.test', 'g2@gmail-hosted.test', 'g3@gmail-hosted.test'];
    const ids = await send(auth, 'hi@slowed.example.test', to);
    const throughput = async () =>
      ((await req(auth, 'GET', `/domains/${domainId}/throughput`)).json().data as Record<string, unknown>[]).find(
        (r) => r.provider === 'gmail',
      )!;
    const slowed = await until(async () => {
      const row = await throughput();
      return row.state === 'THROTTLED' && Number(row.deferredLastHour) > 0 && row;
    }, 'gmail THROTTLED');
    expect(slowed.allowedPerHour).toBe(18000);
    await relay.set('accept');
    for (const id of ids) await m.waitForStatus(auth, id, ['SENT'], 60_000);
    for (const address of to) expect(relay.perRecipient.get(address)).toBe(1);
  });

  it('slows an unlimited pair (Microsoft’s 4.7.650) from what it sent in the last 10 minutes', async () => {
    const { auth, domainId } = await m.verifiedDomain('unlimited.example.test');
    const created = await req(auth, 'POST', '/transports', { name: 'relay', type: 'smtp', config: relay.config });
    const routed = await req(auth, 'PUT', '/routing', { rules: [{ match: {}, transportId: created.json().data.id }] });
    expect(routed.statusCode, routed.body).toBe(200);
    const throughput = async () =>
      ((await req(auth, 'GET', `/domains/${domainId}/throughput`)).json().data as Record<string, unknown>[]).find(
        (r) => r.provider === 'microsoft',
      )!;
    await relay.set('accept');
    const first = await send(
      auth,
      'hi@unlimited.example.test',
      Array.from({ length: 30 }, (_, i) => `u${i}@outlook.com`),
    );
    for (const id of first) await m.waitForStatus(auth, id, ['SENT']);
    await until(async () => (await throughput()).sentLastHour === 30, 'the 30 counted');
    expect(await throughput()).toMatchObject({ allowedPerHour: null, state: 'OK' });
    await relay.set('deferRcpt', '451 4.7.650 The mail server has been temporarily rate limited due to IP reputation');
    const [late] = await send(auth, 'hi@unlimited.example.test', ['late@outlook.com']);
    // 30 in the last 10 minutes is 180 an hour; halved, 90.
    const slowed = await until(async () => {
      const row = await throughput();
      return row.state === 'THROTTLED' && row;
    }, 'microsoft THROTTLED');
    expect(slowed.allowedPerHour).toBe(90);
    await relay.set('accept');
    await m.waitForStatus(auth, late!, ['SENT'], 60_000);
    expect(relay.perRecipient.get('late@outlook.com')).toBe(1);
  });

  it('charges every address of a message with cc and bcc to its own provider', async () => {
    const { auth, domainId } = await m.verifiedDomain('charged.example.test');
    const [id] = await send(auth, 'hi@charged.example.test', ['lead@gmail-hosted.test'], {
      cc: ['copy@outlook.com'],
      bcc: ['hidden@plain-dest.test'],
    });
    await m.waitForStatus(auth, id!, ['SENT']);
    const sent = (rows: Record<string, unknown>[]) =>
      Object.fromEntries(rows.map((r) => [String(r.provider), Number(r.sentLastHour)]));
    let seen: Record<string, number> = {};
    await until(
      async () => {
        seen = sent((await req(auth, 'GET', `/domains/${domainId}/throughput`)).json().data);
        return seen.gmail === 1 && seen.microsoft === 1 && seen.other === 1;
      },
      () => `one each for gmail, microsoft and other: ${JSON.stringify(seen)}`,
    );
    expect(seen).toEqual({ gmail: 1, microsoft: 1, yahoo: 0, apple: 0, other: 1 });
    // One message carried all three.
    expect(m.sink.messages.filter((msg) => msg.to.includes('lead@gmail-hosted.test'))).toHaveLength(1);
  });

  it('holds marketing beyond the warm-up cap until the next day, and never holds transactional mail', async () => {
    const { auth, domainId } = await m.verifiedDomain('warming.example.test');
    const warm = await req(auth, 'PATCH', `/domains/${domainId}`, { warmup: { enabled: true, schedule: [3, 6] } });
    expect(warm.statusCode, warm.body).toBe(200);
    const marketing = await send(
      auth,
      'news@warming.example.test',
      Array.from({ length: 5 }, (_, i) => `m${i}@warm-dest.test`),
      { stream: 'marketing', subscribed: true },
    );
    let statuses: string[] = [];
    await until(
      async () => {
        const emails = await Promise.all(
          marketing.map(async (id) => (await req(auth, 'GET', `/emails/${id}`)).json().data),
        );
        statuses = emails.map((e) => `${e.status}/${e.statusReason}`);
        return (
          emails.filter((e) => e.status === 'SENT').length === 3 &&
          emails.filter((e) => e.status === 'QUEUED' && e.statusReason === 'HELD_WARMUP').length === 2
        );
      },
      () => `3 sent and 2 held: ${statuses.join(', ')}`,
    );
    const transactional = await send(auth, 'hi@warming.example.test', ['t1@warm-dest.test', 't2@warm-dest.test']);
    for (const id of transactional) await m.waitForStatus(auth, id, ['SENT']);
    const domain = (await req(auth, 'GET', `/domains/${domainId}`)).json().data;
    expect(domain.warmup).toMatchObject({ enabled: true, day: 1, cap: 3, sentToday: 5 });
    // The held ones are due the next UTC day.
    const next = new Date();
    next.setUTCHours(24, 0, 0, 0);
    const held = await Promise.all(marketing.map(async (id) => (await req(auth, 'GET', `/emails/${id}`)).json().data));
    expect(held.filter((e) => e.status === 'QUEUED')).toHaveLength(2);
    expect(
      m.sink.messages.filter((msg) => msg.to[0]!.startsWith('m') && msg.to[0]!.endsWith('@warm-dest.test')),
    ).toHaveLength(3);
  });
});

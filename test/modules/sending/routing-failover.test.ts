/**
 * Several transports, each a real SMTP server in this process: routing rules send each message to the server its
 * rule names (exactly once), and a transport that stops taking connections — refused, a 421 greeting, a connection
 * dropped in the middle of DATA after AUTH — is left for the rule's fallback at once, goes DOWN after 5 failures in
 * a row (one `transport.down` webhook), is probed after its back-off and comes back (`transport.up`). Without a
 * fallback, mail waits (DEFERRED, its attempts untouched) and goes out once the transport is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startCheckingRelay, type Relay } from '../transports/relays.ts';
import { startSesAccount, type SesAccount } from '../transports/ses-account.ts';
import { startScriptedSmtp, type ScriptedSmtp } from '../../support/scripted-smtp.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

describe('routing and failover between transports', () => {
  let m: MailFixture;
  let a: ScriptedSmtp;
  let b: ScriptedSmtp;
  let hook: WebhookReceiver;
  let auth: { authorization: string };
  let aId: string;
  let bId: string;
  let project: Parameters<MailFixture['verifiedDomain']>[1];

  const req = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  const send = async (to: string, extra: Record<string, unknown> = {}) => {
    const res = await req('POST', '/v1/send', {
      to,
      from: 'hello@example.test',
      subject: 'routed',
      body: '<p>hello</p>',
      subscribed: true,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.emails as { email: string }[])[0]!.email;
  };

  const email = async (id: string) => (await req('GET', `/emails/${id}`)).json().data as Record<string, unknown>;
  /** The `email.sent` webhook of the email to `to`. */
  const sentHook = (to: string) =>
    until(
      () =>
        hook.received.find(
          (h) => h.json.type === 'email.sent' && String(h.json.data.to).toLowerCase() === to.toLowerCase(),
        ),
      () => `no email.sent webhook for ${to}`,
    );
  const transport = async (id: string) =>
    (await req('GET', `/transports/${id}`)).json().data as Record<string, unknown>;

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    m = await startMailFixture({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', TRANSPORT_BACKOFF_SECONDS: '2', RATE_LIMIT_PER_MINUTE: '100000' },
    });
    a = await startScriptedSmtp({ auth: { user: 'relay-a', pass: 'a-secret-password' } });
    b = await startScriptedSmtp();
    const sender = await m.verifiedDomain('example.test');
    auth = sender.auth;
    project = sender.project;
    const created = await Promise.all([
      req('POST', '/transports', { name: 'relay-a', type: 'smtp', config: a.config }),
      req('POST', '/transports', { name: 'relay-b', type: 'smtp', config: b.config }),
    ]);
    for (const res of created) expect(res.statusCode, res.body).toBe(201);
    [aId, bId] = created.map((res) => res.json().data.id as string) as [string, string];
    const hooked = await req('POST', '/webhooks', {
      url: hook.url,
      events: ['transport.down', 'transport.up', 'email.sent'],
    });
    expect(hooked.statusCode, hooked.body).toBe(201);
    m.dns.setRecords('gmail-hosted.test', [{ type: 'MX', exchange: 'aspmx.l.google.com', priority: 1 }]);
  });

  afterAll(async () => {
    await m?.close();
    await a?.close();
    await b?.close();
    await hook?.close();
  });

  it('sends each message once to the transport its first matching rule names, else to the default', async () => {
    const routing = await req('PUT', '/routing', {
      rules: [
        { match: { tag: 'lane:b' }, transportId: bId },
        { match: { recipientDomain: 'a-dest.test' }, transportId: aId },
        { match: { recipientProvider: 'gmail' }, transportId: bId },
        { match: { stream: 'marketing' }, transportId: aId },
      ],
      defaultTransportId: 'default',
    });
    expect(routing.statusCode, routing.body).toBe(200);
    const ids = {
      byDomain: await send('one@a-dest.test'),
      byProvider: await send('two@gmail-hosted.test'),
      byTag: await send('three@other.test', { tags: [{ name: 'lane', value: 'b' }] }),
      byStream: await send('four@other.test', { stream: 'marketing' }),
      byDefault: await send('five@other.test'),
    };
    for (const id of Object.values(ids)) await m.waitForStatus(auth, id, ['SENT']);
    expect(a.perRecipient.get('one@a-dest.test')).toBe(1);
    expect(b.perRecipient.get('two@gmail-hosted.test')).toBe(1);
    expect(b.perRecipient.get('three@other.test')).toBe(1);
    expect(a.perRecipient.get('four@other.test')).toBe(1);
    expect(m.sink.perRecipient.get('five@other.test')).toBe(1);
    expect(a.perRecipient.get('five@other.test') ?? b.perRecipient.get('five@other.test')).toBeUndefined();
    const recorded = await email(ids.byProvider);
    expect(recorded).toMatchObject({ transportId: bId, provider: 'gmail' });
    expect(await email(ids.byDefault)).toMatchObject({ transportId: 'default', provider: 'other' });
  });

  for (const fault of ['refuse', 'greet421', 'dropInData'] as const) {
    it(`moves mail to the fallback at once when the transport fails (${fault}), each arriving once`, async () => {
      const routed = await req('PUT', '/routing', {
        rules: [{ match: { recipientDomain: 'fo.test' }, transportId: aId, fallbackIds: [bId] }],
        defaultTransportId: 'default',
      });
      expect(routed.statusCode, routed.body).toBe(200);
      await a.set(fault);
      const to = Array.from({ length: 8 }, (_, i) => `${fault}-${i}@fo.test`);
      const ids = await Promise.all(to.map((address) => send(address)));
      for (const id of ids) await m.waitForStatus(auth, id, ['SENT']);
      for (const address of to) {
        expect(b.perRecipient.get(address.toLowerCase())).toBe(1);
        expect(a.perRecipient.get(address.toLowerCase())).toBeUndefined();
      }
      for (const id of ids) expect((await email(id)).transportId).toBe(bId);
      // The email.sent webhook names the transport that carried it: the fallback.
      for (const address of to) expect((await sentHook(address)).json.data).toMatchObject({ transportId: bId });
      // Five failed connections in a row took it down; the webhook says so once.
      await until(
        async () => (await transport(aId)).state === 'DOWN',
        () => 'relay-a never went DOWN',
        10_000,
      );
      const down = await transport(aId);
      expect(String(down.lastError)).not.toContain('a-secret-password');
      await until(async () => Number((await transport(aId)).failovers) >= 1, 'failovers counted', 10_000);
      await until(
        () => hook.received.some((h) => h.json.type === 'transport.down' && h.json.data.transportId === aId),
        () => 'no transport.down webhook',
        10_000,
      );
      // Back: the probe after the back-off finds it working, and `transport.up` goes out.
      await a.set('accept');
      await until(
        async () => (await transport(aId)).state === 'HEALTHY',
        () => 'relay-a never came back',
        20_000,
      );
      await until(
        () => hook.received.filter((h) => h.json.type === 'transport.up').length >= 1,
        () => 'no transport.up webhook',
        10_000,
      );
      const after = await send(`${fault}-after@fo.test`);
      await m.waitForStatus(auth, after, ['SENT']);
      const at = (relay: ScriptedSmtp) => relay.perRecipient.get(`${fault}-after@fo.test`.toLowerCase()) ?? 0;
      expect(at(a) + at(b)).toBe(1);
      // A relay that drops DATA still takes connections and AUTH, so its probe can pass before it works again (it
      // then fails its next messages and goes down again): only one that refused connections is surely back.
      if (fault !== 'dropInData') expect(at(a)).toBe(1);
    });
  }

  it('keeps mail DEFERRED without using up attempts while every transport of its route is down', async () => {
    const routed = await req('PUT', '/routing', {
      rules: [{ match: { recipientDomain: 'wait.test' }, transportId: aId }],
      defaultTransportId: 'default',
    });
    expect(routed.statusCode, routed.body).toBe(200);
    await a.set('refuse');
    const warm = await Promise.all(Array.from({ length: 6 }, (_, i) => send(`warm-${i}@wait.test`)));
    let state: Record<string, unknown> = {};
    let seenWarm: unknown[] = [];
    await until(
      async () => {
        seenWarm = await Promise.all(warm.map(email));
        return (state = await transport(aId)).state === 'DOWN';
      },
      () => `relay-a never went DOWN: ${JSON.stringify(state)} ${JSON.stringify(seenWarm)}`,
      20_000,
    );
    const waiting = await send('late@wait.test');
    await until(
      async () => (await email(waiting)).statusReason === 'TRANSPORT_DOWN',
      () => 'the late email never waited for its transport',
      10_000,
    );
    await a.set('accept');
    for (const id of [...warm, waiting]) await m.waitForStatus(auth, id, ['SENT'], 60_000);
    expect(a.perRecipient.get('late@wait.test')).toBe(1);
    // Its waits for the transport used no attempt: the one that carried it is its only one.
    expect((await email(waiting)).attempts).toBe(1);
    for (let i = 0; i < 6; i++) expect(a.perRecipient.get(`warm-${i}@wait.test`)).toBe(1);
  });

  it('routes by sender domain, and a message with cc by its first `to`', async () => {
    const routed = await req('PUT', '/routing', {
      rules: [
        { match: { recipientDomain: 'first-to.test' }, transportId: bId },
        { match: { senderDomain: 'example.test', recipientDomain: 'cc-side.test' }, transportId: aId },
      ],
      defaultTransportId: 'default',
    });
    expect(routed.statusCode, routed.body).toBe(200);
    await a.set('accept');
    // To first-to.test with a cc at cc-side.test: one message, routed by its first `to`, to both addresses.
    const together = await send('lead@first-to.test', { cc: ['copy@cc-side.test'] });
    const bySender = await send('solo@cc-side.test');
    await m.waitForStatus(auth, together, ['SENT']);
    await m.waitForStatus(auth, bySender, ['SENT']);
    expect(b.perRecipient.get('lead@first-to.test')).toBe(1);
    expect(b.perRecipient.get('copy@cc-side.test')).toBe(1);
    expect(a.perRecipient.get('copy@cc-side.test')).toBeUndefined();
    expect(a.perRecipient.get('solo@cc-side.test')).toBe(1);
  });

  it('skips every DOWN transport of the route: the first healthy fallback takes the mail, once', async () => {
    const c = await startScriptedSmtp();
    try {
      const added = await req('POST', '/transports', { name: 'relay-c', type: 'smtp', config: c.config });
      expect(added.statusCode, added.body).toBe(201);
      const cId = added.json().data.id as string;
      const routed = await req('PUT', '/routing', {
        rules: [{ match: { recipientDomain: 'chain.test' }, transportId: aId, fallbackIds: [cId, bId] }],
        defaultTransportId: 'default',
      });
      expect(routed.statusCode, routed.body).toBe(200);
      await a.set('refuse');
      await c.set('greet421');
      const to = Array.from({ length: 8 }, (_, i) => `c${i}@chain.test`);
      const ids = await Promise.all(to.map((address) => send(address)));
      for (const id of ids) await m.waitForStatus(auth, id, ['SENT']);
      await until(
        async () => (await transport(aId)).state === 'DOWN' && (await transport(cId)).state === 'DOWN',
        'relay-a and relay-c DOWN',
      );
      // With both DOWN, the next message goes straight to relay-b without trying either.
      const before = c.connections;
      const late = await send('late@chain.test');
      await m.waitForStatus(auth, late, ['SENT']);
      for (const address of [...to, 'late@chain.test']) {
        expect(b.perRecipient.get(address)).toBe(1);
        expect(a.perRecipient.get(address) ?? c.perRecipient.get(address)).toBeUndefined();
      }
      expect(await email(late)).toMatchObject({ transportId: bId });
      expect((await transport(cId)).state).toBe('DOWN');
      expect(c.connections - before).toBeLessThanOrEqual(1); // at most its probe
      await a.set('accept');
      await until(async () => (await transport(aId)).state === 'HEALTHY', 'relay-a back', 20_000);
    } finally {
      await c.close();
    }
  });

  it('moves mail waiting for a deleted transport once the routing no longer names it: never lost', async () => {
    const d = await startScriptedSmtp();
    try {
      const added = await req('POST', '/transports', { name: 'relay-d', type: 'smtp', config: d.config });
      expect(added.statusCode, added.body).toBe(201);
      const dId = added.json().data.id as string;
      const routeTo = (transportId: string) =>
        req('PUT', '/routing', {
          rules: [{ match: { recipientDomain: 'moved.test' }, transportId }],
          defaultTransportId: 'default',
        });
      expect((await routeTo(dId)).statusCode).toBe(200);
      await d.set('refuse');
      const to = Array.from({ length: 6 }, (_, i) => `m${i}@moved.test`);
      const ids = await Promise.all(to.map((address) => send(address)));
      await until(async () => (await transport(dId)).state === 'DOWN', 'relay-d DOWN', 20_000);
      const late = await send('late@moved.test');
      await until(async () => (await email(late)).statusReason === 'TRANSPORT_DOWN', 'the late one waiting', 10_000);
      // Routed to: 409, and nothing moves.
      const refused = await req('DELETE', `/transports/${dId}`);
      expect(refused.statusCode).toBe(409);
      expect((await routeTo(bId)).statusCode).toBe(200);
      const deleted = await req('DELETE', `/transports/${dId}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      for (const id of [...ids, late]) await m.waitForStatus(auth, id, ['SENT'], 60_000);
      for (const address of [...to, 'late@moved.test']) expect(b.perRecipient.get(address)).toBe(1);
      expect(d.messages).toHaveLength(0);
      for (const id of [...ids, late]) expect((await email(id)).transportId).toBe(bId);
    } finally {
      await d.close();
    }
  });

  it('routes a campaign’s emails as marketing and a send as transactional', async () => {
    const other = await m.verifiedDomain('campaign-sender.test');
    const as = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
      m.t.app.inject({ method, url, headers: other.auth, payload: payload as object });
    const [ta, tb] = await Promise.all([
      as('POST', '/transports', { name: 'a', type: 'smtp', config: a.config }),
      as('POST', '/transports', { name: 'b', type: 'smtp', config: b.config }),
    ]);
    const routed = await as('PUT', '/routing', {
      rules: [{ match: { stream: 'marketing' }, transportId: ta.json().data.id }],
      defaultTransportId: tb.json().data.id,
    });
    expect(routed.statusCode, routed.body).toBe(200);
    for (const n of [1, 2, 3])
      expect((await as('POST', '/contacts', { email: `r${n}@news-dest.test` })).statusCode).toBeLessThan(300);
    const campaign = await as('POST', '/campaigns', {
      name: 'News',
      subject: 'News',
      body: '<p>News</p>',
      from: 'news@campaign-sender.test',
      audienceType: 'ALL',
    });
    expect(campaign.statusCode, campaign.body).toBe(201);
    const started = await as('POST', `/campaigns/${campaign.json().data.id}/send`, {});
    expect(started.statusCode, started.body).toBe(202);
    const receipt = await as('POST', '/v1/send', {
      to: 'r1@news-dest.test',
      from: 'shop@campaign-sender.test',
      subject: 'Receipt',
      body: '<p>Receipt</p>',
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    await until(() => a.messages.filter((msg) => msg.to[0]!.endsWith('@news-dest.test')).length === 3, 'the campaign');
    await until(() => b.perRecipient.get('r1@news-dest.test') === 1, 'the receipt');
    for (const n of [1, 2, 3]) expect(a.perRecipient.get(`r${n}@news-dest.test`)).toBe(1);
    expect(b.perRecipient.get('r2@news-dest.test')).toBeUndefined();
  });

  it(
    'keeps a relay that answers every RCPT with 4.7.28 HEALTHY: each message deferred again and again, the rate ' +
      'halved, none failed or failed over, each arriving once when it takes mail again',
    async () => {
      const slowed = await m.verifiedDomain('throttled-sender.test', project);
      const limited = await req('PATCH', `/domains/${slowed.domainId}`, { providerLimits: { gmail: 36000 } });
      expect(limited.statusCode, limited.body).toBe(200);
      const routed = await req('PUT', '/routing', {
        rules: [{ match: { recipientProvider: 'gmail' }, transportId: aId, fallbackIds: [bId] }],
        defaultTransportId: 'default',
      });
      expect(routed.statusCode, routed.body).toBe(200);
      const failoversBefore = Number((await transport(aId)).failovers);
      await a.set('deferRcpt', '450 4.7.28 Our system has detected an unusual rate of mail, slow down');
      const to = Array.from({ length: 6 }, (_, i) => `d${i}@gmail-hosted.test`);
      const ids = await Promise.all(to.map((address) => send(address, { from: 'hi@throttled-sender.test' })));
      // Every message deferred at least twice (the relay's "slow down" lasting across retries).
      let seen: Record<string, unknown>[] = [];
      await until(
        async () => {
          seen = await Promise.all(ids.map(email));
          return seen.every((e) => Number(e.attempts) >= 2);
        },
        () => `not all deferred twice: ${JSON.stringify(seen.map((e) => [e.status, e.attempts]))}`,
        60_000,
      );
      expect(seen.filter((e) => e.status === 'FAILED' || e.status === 'SENT')).toEqual([]);
      expect(await transport(aId)).toMatchObject({ state: 'HEALTHY', failovers: failoversBefore });
      const throughput = async () =>
        ((await req('GET', `/domains/${slowed.domainId}/throughput`)).json().data as Record<string, unknown>[]).find(
          (r) => r.provider === 'gmail',
        )!;
      const throttled = await until(async () => {
        const row = await throughput();
        return Number(row.deferredLastHour) >= 12 && row;
      }, 'the deferrals counted');
      expect(throttled.state).toBe('THROTTLED');
      expect(Number(throttled.allowedPerHour)).toBeLessThanOrEqual(18000);
      await a.set('accept');
      for (const id of ids) await m.waitForStatus(auth, id, ['SENT'], 60_000);
      for (const address of to) {
        expect(a.perRecipient.get(address)).toBe(1);
        expect(b.perRecipient.get(address)).toBeUndefined();
      }
    },
  );

  it('fails over from SES whose key is refused, and never shows a secret a relay echoes', async () => {
    const ses: SesAccount = await startSesAccount();
    const echo: Relay = await startCheckingRelay({ username: 'herald', password: 'the-right-password' });
    try {
      const wrongSes = await req('POST', '/transports', {
        name: 'ses-wrong-key',
        type: 'ses',
        config: {
          region: ses.region,
          endpoint: ses.endpoint,
          accessKeyId: ses.accessKeyId,
          secretAccessKey: 'not-the-secret-key-0123456789',
        },
      });
      expect(wrongSes.statusCode, wrongSes.body).toBe(201);
      const echoing = await req('POST', '/transports', {
        name: 'echoing-relay',
        type: 'smtp',
        config: { host: '127.0.0.1', port: echo.port, username: 'herald', password: 'a-wrong-password-echoed' },
      });
      expect(echoing.statusCode, echoing.body).toBe(201);
      const sesId = wrongSes.json().data.id as string;
      const echoId = echoing.json().data.id as string;
      const routed = await req('PUT', '/routing', {
        rules: [
          { match: { recipientDomain: 'ses.test' }, transportId: sesId, fallbackIds: [bId] },
          { match: { recipientDomain: 'echo.test' }, transportId: echoId },
        ],
        defaultTransportId: 'default',
      });
      expect(routed.statusCode, routed.body).toBe(200);
      const viaSes = await send('someone@ses.test');
      await m.waitForStatus(auth, viaSes, ['SENT']);
      expect(b.perRecipient.get('someone@ses.test')).toBe(1);
      expect(ses.sent).toHaveLength(0);
      expect(await email(viaSes)).toMatchObject({ transportId: bId });
      expect(String((await transport(sesId)).lastError)).toMatch(/SignatureDoesNotMatch/);

      const viaEcho = await send('someone@echo.test');
      let seen: Record<string, unknown> = {};
      await until(
        async () => (seen = await email(viaEcho)).status === 'DEFERRED',
        () => `never deferred: ${JSON.stringify(seen)}`,
      );
      const echoed = [String(seen.lastError), String((await transport(echoId)).lastError)];
      expect(echoed.join(' ')).toMatch(/535/);
      // The email's timeline keeps each attempt's SMTP conversation: without the credentials either.
      const timeline = await req('GET', `/emails/${viaEcho}/timeline`);
      expect(timeline.statusCode, timeline.body).toBe(200);
      expect(timeline.body).toMatch(/535/);
      echoed.push(timeline.body);
      for (const text of echoed) {
        expect(text).not.toContain('a-wrong-password-echoed');
        expect(text).not.toContain(Buffer.from('\u0000herald\u0000a-wrong-password-echoed').toString('base64'));
      }
    } finally {
      await ses.close();
      await echo.close();
    }
  });

  it('groups the metrics by the transport that carried each email, as the emails record it', async () => {
    const recorded = new Map<string | null, number>();
    let cursor: string | null = null;
    do {
      const page = (await req('GET', `/emails?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).json().data as {
        items: { transportId: string | null }[];
        nextCursor: string | null;
      };
      for (const e of page.items) recorded.set(e.transportId, (recorded.get(e.transportId) ?? 0) + 1);
      cursor = page.nextCursor;
    } while (cursor);
    const res = await req('GET', '/emails/metrics?groupBy=transport');
    expect(res.statusCode, res.body).toBe(200);
    const groups = res.json().data.groups as { transportId: string | null; transportName: string | null }[];
    expect(new Map(groups.map((g) => [g.transportId, (g as unknown as { recipients: number }).recipients]))).toEqual(
      recorded,
    );
    expect(groups.find((g) => g.transportId === aId)?.transportName).toBe('relay-a');
    expect(groups.find((g) => g.transportId === bId)?.transportName).toBe('relay-b');
    expect(groups.find((g) => g.transportId === 'default')?.transportName).toBe('default');
    // The deleted relay-d carried nothing; relay-b, the fallback of most faults, carried the most.
    expect(groups[0]!.transportId).toBe(bId);
  });

  // Last: its slow-down halves the sender domain's rate towards `other` for the next hour.
  it(
    'treats a temporary reply to RCPT as about the message: deferred and retried on the same transport',
    {
      timeout: 120_000,
    },
    async () => {
      const routed = await req('PUT', '/routing', {
        rules: [{ match: { recipientDomain: 'slow.test' }, transportId: aId, fallbackIds: [bId] }],
        defaultTransportId: 'default',
      });
      expect(routed.statusCode, routed.body).toBe(200);
      await a.set('deferRcpt', '450 4.7.28 Our system has detected an unusual rate of mail, slow down');
      const id = await send('x@slow.test');
      let seen: Record<string, unknown> = {};
      await until(
        async () => (seen = await email(id)).status === 'DEFERRED',
        () => `never deferred: ${JSON.stringify(seen)}`,
        10_000,
      );
      expect(b.perRecipient.get('x@slow.test')).toBeUndefined();
      expect((await transport(aId)).state).toBe('HEALTHY');
      await a.set('accept');
      // Its slow-down spaced the domain's mail to `other`: the retry waits for its slot.
      await m.waitForStatus(auth, id, ['SENT'], 100_000);
      expect(a.perRecipient.get('x@slow.test')).toBe(1);
      expect(b.perRecipient.get('x@slow.test')).toBeUndefined();
    },
  );
});

/**
 * The local sender (herald.localhost) goes out only through an outbox: when a project's routing gives its mail an SMTP
 * transport (by a rule or as the default), the email fails saying why, whatever that transport's health, and the relay
 * never sees a connection; routed to an outbox transport it is written there, and never fails over to a relay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startScriptedSmtp, type ScriptedSmtp } from '../../support/scripted-smtp.ts';
import { until } from '../../support/until.ts';

describe('the local sender and project transports', () => {
  let m: MailFixture;
  let relay: ScriptedSmtp;
  let auth: { authorization: string };
  let relayId: string;
  let filesId: string;

  const req = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const send = async (to: string, from = 'hello@herald.localhost') => {
    const res = await req('POST', '/v1/send', { to, from, subject: 'Local', body: '<p>hi</p>', subscribed: true });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.emails as { email: string }[])[0]!.email;
  };
  const route = async (body: unknown) => {
    const res = await req('PUT', '/routing', body);
    expect(res.statusCode, res.body).toBe(200);
  };
  const outboxFile = (id: string) => path.join(m.t.ctx.config.dataDir, 'outbox', `${id}.eml`);
  const email = async (id: string) => (await req('GET', `/emails/${id}`)).json().data as Record<string, unknown>;

  /** The email FAILED for its sender, its reason naming the transport; nothing reached a relay or the outbox. */
  const refused = async (id: string, transportName: string) => {
    const failed = await m.waitForStatus(auth, id, ['FAILED', 'SENT']);
    expect(failed).toMatchObject({ status: 'FAILED', statusReason: 'DOMAIN_NOT_VERIFIED' });
    expect(String(failed.lastError)).toContain('herald.localhost is a local sender for the outbox transport only');
    expect(String(failed.lastError)).toContain(`"${transportName}" (smtp)`);
    expect(fs.existsSync(outboxFile(id))).toBe(false);
  };

  beforeAll(async () => {
    // The instance's own transport is the outbox, so the API accepts the local sender; the routing decides.
    m = await startMailFixture({
      env: { MAIL_TRANSPORT: 'outbox', TRANSPORT_BACKOFF_SECONDS: '600', RATE_LIMIT_PER_MINUTE: '100000' },
    });
    relay = await startScriptedSmtp();
    const sender = await m.verifiedDomain('real-sender.test');
    auth = sender.auth;
    // A project made while the instance sends to the outbox starts with the local sender.
    const created = await Promise.all([
      req('POST', '/transports', { name: 'relay', type: 'smtp', config: relay.config }),
      req('POST', '/transports', { name: 'files', type: 'outbox' }),
    ]);
    for (const res of created) expect(res.statusCode, res.body).toBe(201);
    [relayId, filesId] = created.map((res) => res.json().data.id as string) as [string, string];
  });

  afterAll(async () => {
    await m?.close();
    await relay?.close();
  });

  it('fails local mail a rule, or the default, routes to an SMTP transport, even with an outbox fallback', async () => {
    await route({
      rules: [{ match: { senderDomain: 'herald.localhost' }, transportId: relayId, fallbackIds: [filesId] }],
      defaultTransportId: 'default',
    });
    const byRule = await send('ada@example.com');
    await refused(byRule, 'relay');
    await route({ rules: [], defaultTransportId: relayId });
    const byDefault = await send('grace@example.com');
    await refused(byDefault, 'relay');
    // Mail from a real domain of the same project takes the same route.
    const real = await send('linus@example.com', 'hello@real-sender.test');
    await m.waitForStatus(auth, real, ['SENT']);
    expect(relay.perRecipient.get('linus@example.com')).toBe(1);
    expect(relay.perRecipient.get('ada@example.com') ?? relay.perRecipient.get('grace@example.com')).toBeUndefined();
    expect(relay.messages).toHaveLength(1);
    expect(m.sink.messages).toHaveLength(0);
  });

  it('fails it too while that SMTP transport is DOWN and the outbox fallback would take it', async () => {
    await route({
      rules: [
        { match: { senderDomain: 'herald.localhost' }, transportId: relayId, fallbackIds: [filesId] },
        { match: { recipientDomain: 'down.test' }, transportId: relayId, fallbackIds: [filesId] },
      ],
      defaultTransportId: 'default',
    });
    await relay.set('refuse');
    const warm = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(`w${i}@down.test`, 'hello@real-sender.test')),
    );
    for (const id of warm) await m.waitForStatus(auth, id, ['SENT']);
    await until(
      async () => (await req('GET', `/transports/${relayId}`)).json().data.state === 'DOWN',
      'the relay DOWN',
    );
    const connections = relay.connections;
    const local = await send('barbara@example.com');
    await refused(local, 'relay');
    // The real domain's mail went to the outbox fallback; the local one went nowhere.
    for (const id of warm) expect(await email(id)).toMatchObject({ transportId: filesId });
    expect(relay.connections).toBe(connections);
    await relay.set('accept');
  });

  it('writes local mail routed to an outbox transport there, never failing over to a relay', async () => {
    await route({
      rules: [{ match: { senderDomain: 'herald.localhost' }, transportId: filesId, fallbackIds: [relayId] }],
      defaultTransportId: relayId,
    });
    const viaFiles = await send('edsger@example.com');
    expect(await m.waitForStatus(auth, viaFiles, ['SENT', 'FAILED'])).toMatchObject({
      status: 'SENT',
      transportId: filesId,
    });
    expect(fs.readFileSync(outboxFile(viaFiles), 'utf8')).toMatch(/^From: .*hello@herald\.localhost/m);
    // Without a rule, the instance's own transport (the outbox here) carries it.
    await route({ rules: [], defaultTransportId: 'default' });
    const viaDefault = await send('tony@example.com');
    expect(await m.waitForStatus(auth, viaDefault, ['SENT', 'FAILED'])).toMatchObject({
      status: 'SENT',
      transportId: 'default',
    });
    expect(fs.existsSync(outboxFile(viaDefault))).toBe(true);
    expect(relay.perRecipient.get('edsger@example.com') ?? relay.perRecipient.get('tony@example.com')).toBeUndefined();
    expect(m.sink.messages).toHaveLength(0);
  });
});

/**
 * In the sending engine, a relay that takes the TCP connection and never greets (timed out) and one whose TLS fails
 * (a certificate no client trusts, implicit or over STARTTLS, or implicit TLS against a relay speaking plain text) each
 * fail the connection: its mail goes to the rule's fallback at once, the transport is DEGRADED after the first such
 * failure and DOWN after the fifth in a row, and a DOWN transport is not even tried. Every message arrives exactly
 * once, at the fallback. The limits for the connection and the greeting are one second here (their settings).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startScriptedSmtp, type ScriptedSmtp } from '../../support/scripted-smtp.ts';
import { until } from '../../support/until.ts';
import { startRawServer, startUntrustedTlsRelay } from '../transports/relays.ts';

interface FaultyRelay {
  port: number;
  readonly connections: number;
  close(): Promise<void>;
}

const FAULTS: {
  name: string;
  start(): Promise<FaultyRelay & { messages?: Buffer[] }>;
  secure: boolean;
  error: RegExp;
}[] = [
  { name: 'a relay that never greets', start: () => startRawServer(null), secure: false, error: /greeting/i },
  {
    name: 'an untrusted certificate (implicit TLS)',
    start: () => startUntrustedTlsRelay('implicit'),
    secure: true,
    error: /self[- ]signed/i,
  },
  {
    name: 'an untrusted certificate (STARTTLS)',
    start: () => startUntrustedTlsRelay('starttls'),
    secure: false,
    error: /self[- ]signed/i,
  },
  {
    name: 'plain text where TLS is required',
    start: () => startRawServer('220 plain relay'),
    secure: true,
    error: /wrong version number|ssl|tls/i,
  },
];

describe('connection faults in the sending engine', () => {
  let m: MailFixture;
  let fallback: ScriptedSmtp;
  let auth: { authorization: string };
  let fallbackId: string;

  const req = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const transport = async (id: string) =>
    (await req('GET', `/transports/${id}`)).json().data as Record<string, unknown>;
  const sendAndWait = async (to: string) => {
    const res = await req('POST', '/v1/send', {
      to,
      from: 'hello@example.test',
      subject: 'faults',
      body: '<p>hi</p>',
      subscribed: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json().data.emails as { email: string }[])[0]!.email;
    return m.waitForStatus(auth, id, ['SENT', 'FAILED']);
  };

  beforeAll(async () => {
    m = await startMailFixture({
      env: {
        TRANSPORT_CONNECT_TIMEOUT_SECONDS: '1',
        TRANSPORT_GREETING_TIMEOUT_SECONDS: '1',
        // No probe while a test looks at a DOWN transport.
        TRANSPORT_BACKOFF_SECONDS: '600',
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    fallback = await startScriptedSmtp();
    const sender = await m.verifiedDomain('example.test');
    auth = sender.auth;
    const created = await req('POST', '/transports', { name: 'fallback', type: 'smtp', config: fallback.config });
    expect(created.statusCode, created.body).toBe(201);
    fallbackId = created.json().data.id as string;
  });

  afterAll(async () => {
    await m?.close();
    await fallback?.close();
  });

  FAULTS.forEach((fault, n) => {
    it(`counts ${fault.name} as a failed connection: DEGRADED, DOWN at five, mail at the fallback once`, async () => {
      const relay = await fault.start();
      try {
        const created = await req('POST', '/transports', {
          name: `faulty-${n}`,
          type: 'smtp',
          config: { host: '127.0.0.1', port: relay.port, secure: fault.secure },
        });
        expect(created.statusCode, created.body).toBe(201);
        const faultyId = created.json().data.id as string;
        const domain = `fault${n}.test`;
        const routed = await req('PUT', '/routing', {
          rules: [{ match: { recipientDomain: domain }, transportId: faultyId, fallbackIds: [fallbackId] }],
          defaultTransportId: 'default',
        });
        expect(routed.statusCode, routed.body).toBe(200);
        // One message at a time: each tries the relay once, then goes to the fallback.
        for (let i = 1; i <= 5; i++) {
          const sent = await sendAndWait(`r${i}@${domain}`);
          expect(sent).toMatchObject({ status: 'SENT', transportId: fallbackId });
          const state = await transport(faultyId);
          expect(state.state, JSON.stringify(state)).toBe(i < 5 ? 'DEGRADED' : 'DOWN');
          expect(String(state.lastError)).toMatch(fault.error);
          expect(relay.connections).toBe(i);
        }
        // DOWN: the next message goes straight to the fallback, the relay untried.
        const late = await sendAndWait(`r6@${domain}`);
        expect(late).toMatchObject({ status: 'SENT', transportId: fallbackId });
        expect(relay.connections).toBe(5);
        for (let i = 1; i <= 6; i++) expect(fallback.perRecipient.get(`r${i}@${domain}`)).toBe(1);
        expect(relay.messages ?? []).toHaveLength(0);
        await until(async () => Number((await transport(faultyId)).failovers) === 6, 'the six failovers counted');
      } finally {
        await relay.close();
      }
    });
  });
});

// SES is unreachable here, so a local HTTP server plays SES v2 and checks the documented wire format:
// POST /v2/email/outbound-emails, JSON with Content.Raw.Data (base64), SigV4 Authorization (verified below).
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../transport.ts';
import { classifySesError, createSesTransport } from './ses.ts';

const ACCESS_KEY = 'AKIDEXAMPLE';
const SECRET_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const REGION = 'eu-west-1';

interface Captured {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let endpoint: string;
let requests: Captured[] = [];
let reply: (req: Captured, res: http.ServerResponse) => void;

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256Hex = (data: string) => createHash('sha256').update(data).digest('hex');

// An independent SigV4 check (AWS General Reference, "Create a signed AWS API request").
function verifySigV4(req: Captured): boolean {
  const auth = new RegExp(
    String.raw`^AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request, ` +
      String.raw`SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$`,
  ).exec(String(req.headers.authorization));
  if (!auth) return false;
  const [, keyId, date, region, service, signedHeaders, signature] = auth as unknown as string[];
  if (keyId !== ACCESS_KEY || region !== REGION || service !== 'ses') return false;
  const amzDate = String(req.headers['x-amz-date']);
  const names = (signedHeaders ?? '').split(';');
  const canonicalHeaders = names.map((n) => `${n}:${String(req.headers[n]).trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [
    req.method,
    req.url.split('?')[0],
    '',
    canonicalHeaders,
    signedHeaders,
    sha256Hex(req.body),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const kSigning = hmac(hmac(hmac(hmac(`AWS4${SECRET_KEY}`, date ?? ''), REGION), 'ses'), 'aws4_request');
  return hmac(kSigning, stringToSign).toString('hex') === signature;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, errorType?: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-requestid': 'req-1',
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const captured = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(captured);
      reply(captured, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
  reply = (_req, res) => sendJson(res, 200, { MessageId: '0102018f-abc-000000' });
});

const raw = Buffer.from('From: a@example.com\r\nTo: b@example.org\r\nSubject: hi\r\n\r\nBody ü\r\n', 'utf8');

function transport() {
  return createSesTransport({
    region: REGION,
    endpoint,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    configurationSetName: 'herald',
  });
}

async function sendExpectingError(): Promise<DeliveryError> {
  const t = transport();
  try {
    const err = await t.send({ from: 'a@example.com', to: 'b@example.org', raw, emailId: 'em_1' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DeliveryError);
    return err as DeliveryError;
  } finally {
    await t.close();
  }
}

describe('SES v2 transport (wire format)', () => {
  it('POSTs the raw message as base64 in Content.Raw.Data with a valid SigV4 signature', async () => {
    const t = transport();
    const result = await t.send({ from: 'a@example.com', to: 'b@example.org', raw, emailId: 'em_1' });
    await t.close();
    expect(result.messageId).toBe('0102018f-abc-000000');
    expect(requests).toHaveLength(1);
    const req = requests[0] as Captured;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v2/email/outbound-emails');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(String(req.headers.authorization)).toMatch(
      new RegExp(
        String.raw`^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\d{8}/eu-west-1/ses/aws4_request, ` +
          String.raw`SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$`,
      ),
    );
    expect(verifySigV4(req)).toBe(true);
    const body = JSON.parse(req.body) as {
      Content: { Raw: { Data: string } };
      Destination: { ToAddresses: string[] };
      FromEmailAddress: string;
      ConfigurationSetName: string;
    };
    expect(Buffer.from(body.Content.Raw.Data, 'base64').equals(raw)).toBe(true);
    expect(body.Destination.ToAddresses).toEqual(['b@example.org']);
    expect(body.FromEmailAddress).toBe('a@example.com');
    expect(body.ConfigurationSetName).toBe('herald');
  });

  it('a tampered request would not verify (the checker is not a rubber stamp)', async () => {
    const t = transport();
    await t.send({ from: 'a@example.com', to: 'b@example.org', raw, emailId: 'em_1' });
    await t.close();
    const req = requests[0] as Captured;
    expect(verifySigV4({ ...req, body: req.body.replace('b@example.org', 'c@example.org') })).toBe(false);
  });

  it('400 MessageRejected → permanent, not suppressing', async () => {
    reply = (_req, res) => sendJson(res, 400, { message: 'Email address is not verified.' }, 'MessageRejected');
    const err = await sendExpectingError();
    expect(err).toMatchObject({ kind: 'permanent', suppress: false, responseCode: 400 });
    expect(err.message).toMatch(/MessageRejected/);
  });

  it('429 throttling and 5xx → temporary', async () => {
    reply = (_req, res) =>
      sendJson(res, 429, { message: 'Maximum sending rate exceeded.' }, 'TooManyRequestsException');
    expect((await sendExpectingError()).kind).toBe('temporary');
    reply = (_req, res) => sendJson(res, 500, { message: 'internal' }, 'InternalServiceErrorException');
    expect((await sendExpectingError()).kind).toBe('temporary');
    reply = (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html>Service Unavailable</html>');
    };
    expect((await sendExpectingError()).kind).toBe('temporary');
    expect(requests.length).toBe(3); // no hidden SDK retries: the send queue owns back-off
  });

  it('sender-side states (sending paused) are retried, not bounced', async () => {
    reply = (_req, res) => sendJson(res, 400, { message: 'paused' }, 'SendingPausedException');
    expect((await sendExpectingError()).kind).toBe('temporary');
  });

  it('a network failure → temporary', async () => {
    const t = createSesTransport({
      region: REGION,
      endpoint: 'http://127.0.0.1:1',
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
    });
    const err = await t.send({ from: 'a@example.com', to: 'b@example.org', raw, emailId: 'e' }).then(
      () => null,
      (e: unknown) => e,
    );
    await t.close();
    expect(err).toBeInstanceOf(DeliveryError);
    expect((err as DeliveryError).kind).toBe('temporary');
  });

  it('classifySesError maps plain errors and refuses half credentials', () => {
    expect(classifySesError(new Error('socket hang up')).kind).toBe('temporary');
    expect(classifySesError({ name: 'BadRequestException', $metadata: { httpStatusCode: 400 } }).kind).toBe(
      'permanent',
    );
    expect(() => createSesTransport({ region: REGION, accessKeyId: 'x' })).toThrow(/together/);
  });

  it('fails an address with a non-ASCII local part at once (SES has no SMTPUTF8), without calling SES', async () => {
    const t = createSesTransport({ region: REGION, endpoint, accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY });
    const before = requests.length;
    const err = await t.send({ from: 'a@example.com', to: 'jöhn@example.org', raw, emailId: 'e' }).then(
      () => null,
      (e: unknown) => e,
    );
    await t.close();
    expect(err).toBeInstanceOf(DeliveryError);
    expect((err as DeliveryError).kind).toBe('permanent');
    expect((err as DeliveryError).message).toMatch(/SMTPUTF8/);
    expect(requests.length).toBe(before);
  });
});

/**
 * An Amazon SES v2 look-alike that checks credentials the way AWS does: GET /v2/email/account (GetAccount) answers the
 * account, and POST /v2/email/outbound-emails (SendEmail) takes a message, when the request's SigV4 signature (AWS
 * General Reference, "Create a signed AWS API request") verifies with the one key pair it knows, and answers AWS's own
 * 403 errors otherwise (UnrecognizedClientException for an unknown access key id, SignatureDoesNotMatch for a wrong
 * secret key).
 *
 *   const ses = await startSesAccount();
 *   ses.endpoint, ses.accessKeyId, ses.secretAccessKey, ses.region
 */
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SesAccount {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** GetAccount and SendEmail calls seen, each with whether its signature verified. */
  calls: { verified: boolean }[];
  /** The bodies of the SendEmail calls it accepted (signed with its key). */
  sent: string[];
  close(): Promise<void>;
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256Hex = (data: string) => createHash('sha256').update(data).digest('hex');

type Check = 'ok' | 'unknown-key' | 'bad-signature';

function checkSigV4(
  req: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string },
  keys: { accessKeyId: string; secretAccessKey: string; region: string },
): Check {
  const auth = new RegExp(
    String.raw`^AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request, ` +
      String.raw`SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$`,
  ).exec(String(req.headers.authorization));
  if (!auth) return 'bad-signature';
  const [, keyId, date, region, service, signedHeaders, signature] = auth as unknown as string[];
  if (keyId !== keys.accessKeyId) return 'unknown-key';
  const names = (signedHeaders ?? '').split(';');
  const canonicalHeaders = names.map((n) => `${n}:${String(req.headers[n]).trim().replace(/\s+/g, ' ')}\n`).join('');
  const [path, query = ''] = req.url.split('?');
  const canonicalRequest = [req.method, path, query, canonicalHeaders, signedHeaders, sha256Hex(req.body)].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', String(req.headers['x-amz-date']), scope, sha256Hex(canonicalRequest)].join(
    '\n',
  );
  const kSigning = hmac(
    hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, date ?? ''), region ?? ''), service ?? ''),
    'aws4_request',
  );
  const valid = region === keys.region && hmac(kSigning, stringToSign).toString('hex') === signature;
  return valid ? 'ok' : 'bad-signature';
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, errorType?: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-requestid': 'req-1',
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(JSON.stringify(body));
}

export async function startSesAccount(): Promise<SesAccount> {
  const keys = {
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
    region: 'eu-west-1',
  };
  const calls: SesAccount['calls'] = [];
  const sent: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url?.split('?')[0];
      const account = req.method === 'GET' && path === '/v2/email/account';
      const sending = req.method === 'POST' && path === '/v2/email/outbound-emails';
      if (!account && !sending) {
        sendJson(res, 404, { message: 'not found' }, 'NotFoundException');
        return;
      }
      const check = checkSigV4(
        {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        },
        keys,
      );
      calls.push({ verified: check === 'ok' });
      if (check === 'unknown-key') {
        sendJson(
          res,
          403,
          { message: 'The security token included in the request is invalid.' },
          'UnrecognizedClientException',
        );
      } else if (check === 'bad-signature') {
        sendJson(
          res,
          403,
          {
            message:
              'The request signature we calculated does not match the signature you provided. ' +
              'Check your AWS Secret Access Key and signing method.',
          },
          'SignatureDoesNotMatch',
        );
      } else if (sending) {
        sent.push(Buffer.concat(chunks).toString('utf8'));
        sendJson(res, 200, { MessageId: `0100-${sent.length}-example` });
      } else {
        sendJson(res, 200, {
          SendingEnabled: true,
          ProductionAccessEnabled: true,
          SendQuota: { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: 12 },
          EnforcementStatus: 'HEALTHY',
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...keys,
    calls,
    sent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

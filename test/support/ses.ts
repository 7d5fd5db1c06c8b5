/**
 * An Amazon SES v2 look-alike for tests that run Herald with MAIL_TRANSPORT=ses (AWS cannot run here): it takes
 * SendEmail as the SDK posts it (POST /v2/email/outbound-emails, JSON with Content.Raw.Data) and answers with a
 * fresh MessageId, the id SES notifications quote later as `mail.messageId`.
 *
 *   const ses = await startFakeSes();
 *   const t = await createTestApp({ env: { ...ses.env, SES_SNS_TOPIC_ARNS: TOPIC } });
 *   ses.messageIdFor('someone@dest.test')   // the id SES "gave" the message to that recipient
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSes {
  /** MAIL_TRANSPORT, SES_REGION, SES_ENDPOINT and static credentials (no AWS credential chain is consulted). */
  env: Record<string, string>;
  /** Every message accepted, in order. */
  sent: { to: string; messageId: string; raw: Buffer }[];
  /** The MessageId of the last message accepted for `to`. */
  messageIdFor(to: string): string;
  close(): Promise<void>;
}

export async function startFakeSes(): Promise<FakeSes> {
  const sent: FakeSes['sent'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v2/email/outbound-emails') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        Destination: { ToAddresses: string[] };
        Content: { Raw: { Data: string } };
      };
      const messageId = `0100018f${randomUUID().replaceAll('-', '')}-000000`;
      sent.push({ to: body.Destination.ToAddresses[0]!, messageId, raw: Buffer.from(body.Content.Raw.Data, 'base64') });
      res
        .writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() })
        .end(JSON.stringify({ MessageId: messageId }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      MAIL_TRANSPORT: 'ses',
      SES_REGION: 'us-east-1',
      SES_ENDPOINT: endpoint,
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    },
    sent,
    messageIdFor(to) {
      const found = sent.findLast((message) => message.to === to);
      if (!found) throw new Error(`SES was handed no message for ${to}`);
      return found.messageId;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// Amazon SNS message verification, as AWS documents it: the signing certificate may come only over https from
// sns.<region>.amazonaws.com (plus hosts the operator adds), is cached, and must verify the message's
// canonical string (SignatureVersion 1 = SHA1withRSA, 2 = SHA256withRSA).
import { X509Certificate, createVerify } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';

/** An SNS message as SNS posts it (JSON); fields outside the signature (UnsubscribeURL…) are dropped. */
const snsMessageSchema = z.object({
  Type: z.string().max(64),
  // The replay fingerprint, stored: PostgreSQL refuses NUL in text.
  MessageId: z
    .string()
    .min(1)
    .max(256)
    .refine((v) => !v.includes('\0')),
  TopicArn: z.string().max(1024),
  Message: z.string(),
  Timestamp: z.string().max(64),
  SignatureVersion: z.string().max(8),
  Signature: z.string().max(4096),
  SigningCertURL: z.string().max(2048),
  Subject: z.string().optional(),
  Token: z.string().optional(),
  SubscribeURL: z.string().max(4096).optional(),
});

export type SnsMessage = z.infer<typeof snsMessageSchema>;

/** How far a message's Timestamp may be from now: SNS gives up retrying a delivery within an hour. */
const SNS_MAX_AGE_MS = 3600_000;

export interface SnsTrust {
  /** host or host:port entries admitted besides sns.<region>.amazonaws.com. */
  extraHosts: string[];
  /** Extra CA certificates (PEM) for those hosts. */
  ca?: string | undefined;
}

const AWS_SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const FIELDS: Record<string, (keyof SnsMessage)[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** The SNS message in a request body (a JSON string: SNS posts text/plain, or already parsed); 400 otherwise. */
export function parseSnsMessage(body: unknown): SnsMessage {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      throw new AppError('BAD_REQUEST', 'Malformed JSON body');
    }
  }
  const parsed = snsMessageSchema.safeParse(value);
  if (!parsed.success) throw new AppError('BAD_REQUEST', 'Not an Amazon SNS message');
  return parsed.data;
}

/** Why a message's Timestamp is refused (unreadable, or over an hour from now: a replay), or null. */
export function staleTimestamp(timestamp: string, now = Date.now()): string | null {
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return 'its Timestamp is not a date';
  return Math.abs(now - at) > SNS_MAX_AGE_MS ? 'its Timestamp is more than an hour away from now' : null;
}

/** Whether a URL may serve an SNS certificate or subscription: https, an SNS host (or an admitted one). */
export function isTrustedSnsUrl(
  value: string,
  trust: Pick<SnsTrust, 'extraHosts'>,
  kind: 'cert' | 'subscribe',
): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  if (kind === 'cert' && !url.pathname.endsWith('.pem')) return false;
  return (AWS_SNS_HOST.test(url.hostname) && url.port === '') || trust.extraHosts.includes(url.host);
}

/** The string AWS signs: `Name\nvalue\n` for each present field of the message type, in this order. */
export function snsStringToSign(message: SnsMessage): string | null {
  const fields = FIELDS[message.Type];
  if (!fields) return null;
  return fields
    .filter((name) => message[name] !== undefined)
    .map((name) => `${name}\n${message[name]}\n`)
    .join('');
}

/** GET over https with the SNS trust rules: no redirects, a size cap, a time limit. */
export function snsGet(url: string, trust: SnsTrust, maxBytes = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      url,
      { timeout: 5000, ...(trust.ca ? { ca: [...tls.rootCertificates, trust.ca] } : {}) },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`GET ${url}: HTTP ${response.statusCode}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) request.destroy(new Error(`GET ${url}: response too large`));
          else chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`GET ${url}: timed out`)));
    request.on('error', reject);
  });
}

/** Verifies SNS messages, fetching and caching each signing certificate once. */
export class SnsVerifier {
  private readonly certs = new Map<string, { key: X509Certificate; expires: number }>();

  constructor(private readonly trust: SnsTrust) {}

  static fromConfig(sns: { extraCertHosts: string[]; caFile: string | undefined }): SnsVerifier {
    return new SnsVerifier({
      extraHosts: sns.extraCertHosts,
      ca: sns.caFile ? fs.readFileSync(sns.caFile, 'utf8') : undefined,
    });
  }

  get trustRules(): SnsTrust {
    return this.trust;
  }

  private async certificate(url: string): Promise<X509Certificate> {
    const hit = this.certs.get(url);
    if (hit && hit.expires > Date.now()) return hit.key;
    const cert = new X509Certificate(await snsGet(url, this.trust));
    if (this.certs.size >= 50) this.certs.delete(this.certs.keys().next().value!);
    this.certs.set(url, { key: cert, expires: Math.min(Date.now() + 24 * 3600_000, Date.parse(cert.validTo)) });
    return cert;
  }

  /** Null when the message verifies; otherwise why it does not. */
  async problem(message: SnsMessage): Promise<string | null> {
    const text = snsStringToSign(message);
    if (!text) return `unknown message type ${String(message.Type)}`;
    const algorithm =
      message.SignatureVersion === '1' ? 'RSA-SHA1' : message.SignatureVersion === '2' ? 'RSA-SHA256' : null;
    if (!algorithm) return `unsupported SignatureVersion ${String(message.SignatureVersion)}`;
    if (!isTrustedSnsUrl(message.SigningCertURL, this.trust, 'cert')) return 'SigningCertURL is not an SNS https URL';
    const cert = await this.certificate(message.SigningCertURL);
    const ok = createVerify(algorithm).update(text, 'utf8').verify(cert.publicKey, message.Signature, 'base64');
    return ok ? null : 'signature does not verify';
  }
}

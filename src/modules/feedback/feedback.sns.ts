// Amazon SNS message verification, as AWS documents it: the signing certificate may come only over https from
// sns.<region>.amazonaws.com (plus hosts the operator adds), is cached, and must verify the message's
// canonical string (SignatureVersion 1 = SHA1withRSA, 2 = SHA256withRSA).
import { X509Certificate, createVerify } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';

export interface SnsMessage {
  Type: string;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
}

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

/** Whether a URL may serve an SNS certificate or subscription: https, an SNS host (or an admitted one). */
export function isTrustedSnsUrl(value: string, trust: Pick<SnsTrust, 'extraHosts'>, kind: 'cert' | 'subscribe'): boolean {
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
  return fields.filter((name) => message[name] !== undefined).map((name) => `${name}\n${message[name]}\n`).join('');
}

/** GET over https with the SNS trust rules: no redirects, a size cap, a time limit. */
export function snsGet(url: string, trust: SnsTrust, maxBytes = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = https.get(url, { timeout: 5000, ...(trust.ca ? { ca: [...tls.rootCertificates, trust.ca] } : {}) }, (response) => {
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
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url}: timed out`)));
    request.on('error', reject);
  });
}

/** Verifies SNS messages, fetching and caching each signing certificate once. */
export class SnsVerifier {
  private readonly certs = new Map<string, { key: X509Certificate; expires: number }>();

  constructor(private readonly trust: SnsTrust) {}

  static fromConfig(sns: { extraCertHosts: string[]; caFile: string | undefined }): SnsVerifier {
    return new SnsVerifier({ extraHosts: sns.extraCertHosts, ca: sns.caFile ? fs.readFileSync(sns.caFile, 'utf8') : undefined });
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
    const algorithm = message.SignatureVersion === '1' ? 'RSA-SHA1' : message.SignatureVersion === '2' ? 'RSA-SHA256' : null;
    if (!algorithm) return `unsupported SignatureVersion ${String(message.SignatureVersion)}`;
    if (!isTrustedSnsUrl(message.SigningCertURL, this.trust, 'cert')) return 'SigningCertURL is not an SNS https URL';
    const cert = await this.certificate(message.SigningCertURL);
    const ok = createVerify(algorithm).update(text, 'utf8').verify(cert.publicKey, message.Signature, 'base64');
    return ok ? null : 'signature does not verify';
  }
}

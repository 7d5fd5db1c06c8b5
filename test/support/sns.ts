/**
 * An SNS look-alike for tests (AWS cannot run here): a key pair and self-signed certificate made with the
 * machine's openssl, an in-test HTTPS server that serves the certificate and records subscription
 * confirmations, and messages signed the way AWS documents (SignatureVersion 2, SHA256withRSA).
 */
import { createSign, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface FakeSns {
  /** host:port of the HTTPS server (admit it with SES_SNS_CERT_HOSTS). */
  host: string;
  /** PEM file of the certificate (trust it with SES_SNS_CA_FILE). */
  caFile: string;
  certUrl: string;
  confirmations: string[];
  certFetches: number;
  /** A signed SNS message, sent now unless `Timestamp` says otherwise. */
  sign(fields: {
    Type: string;
    Message: string;
    TopicArn?: string;
    Token?: string;
    SubscribeURL?: string;
    Subject?: string;
    SigningCertURL?: string;
    MessageId?: string;
    Timestamp?: string;
  }): Record<string, string>;
  close(): Promise<void>;
}

export async function startFakeSns(): Promise<FakeSns> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-sns-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const key = fs.readFileSync(keyFile, 'utf8');
  const cert = fs.readFileSync(certFile, 'utf8');
  const state = { confirmations: [] as string[], certFetches: 0 };
  const server = https.createServer({ key, cert }, (req, res) => {
    if (req.url?.endsWith('.pem')) {
      state.certFetches += 1;
      res.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(cert);
    } else if (req.url?.startsWith('/confirm')) {
      state.confirmations.push(req.url);
      res.writeHead(200, { 'content-type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const certUrl = `https://${host}/SimpleNotificationService-test.pem`;
  const order: Record<string, string[]> = {
    Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
    SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  };
  return {
    host,
    caFile: certFile,
    certUrl,
    get confirmations() {
      return state.confirmations;
    },
    get certFetches() {
      return state.certFetches;
    },
    sign(fields) {
      const message: Record<string, string> = {
        MessageId: fields.MessageId ?? randomUUID(),
        TopicArn: fields.TopicArn ?? 'arn:aws:sns:us-east-1:123456789012:herald-feedback',
        Timestamp: new Date().toISOString(),
        SignatureVersion: '2',
        SigningCertURL: fields.SigningCertURL ?? certUrl,
        ...Object.fromEntries(
          Object.entries(fields).filter(([k, v]) => v !== undefined && k !== 'SigningCertURL' && k !== 'MessageId'),
        ),
      };
      const text = order[message.Type!]!.filter((k) => message[k] !== undefined)
        .map((k) => `${k}\n${message[k]}\n`)
        .join('');
      message.Signature = createSign('RSA-SHA256').update(text).sign(key, 'base64');
      return message;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

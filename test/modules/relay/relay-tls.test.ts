// TLS at the relay, with a self-signed certificate made for the test by openssl: STARTTLS (and AUTH refused
// without it from a client that is not on loopback), implicit TLS, and a renewed certificate served without a restart.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config.ts';
import type { AppContext } from '../../../src/context.types.ts';
import { startSubmissionRelay, type SubmissionRelay } from '../../../src/modules/relay/index.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';
import { relayTransport } from '../../support/smtp-client.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-relay-tls-'));
const certFile = path.join(dir, 'cert.pem');
const keyFile = path.join(dir, 'key.pem');

/**
 * Writes a new self-signed certificate and key for `cn` (to temporary files, then renamed into place as certbot does).
 */
function makeCertificate(cn: string): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${keyFile}.new`,
      '-out',
      `${certFile}.new`,
      '-days',
      '2',
      '-subj',
      `/CN=${cn}`,
    ],
    { stdio: 'ignore' },
  );
  fs.renameSync(`${keyFile}.new`, keyFile);
  fs.renameSync(`${certFile}.new`, certFile);
}

/** This machine's first address that is not loopback, if it has one: a client there is "not on loopback". */
const outsideAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

function peerName(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const cn = socket.getPeerCertificate().subject.CN;
      socket.destroy();
      resolve(String(cn));
    });
    socket.once('error', reject);
  });
}

describe('SMTP submission relay over TLS', () => {
  let m: MailFixture;
  let starttls: SubmissionRelay;
  let implicit: SubmissionRelay;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    makeCertificate('relay-one.test');
    m = await startMailFixture({
      env: { SUBMISSION_SMTP_HOST: '0.0.0.0', SUBMISSION_TLS_CERT: certFile, SUBMISSION_TLS_KEY: keyFile },
    });
    sender = await m.verifiedDomain('example.test');
    starttls = await startSubmissionRelay(m.t.ctx, 0);
    const ctx: AppContext = {
      ...m.t.ctx,
      config: { ...m.t.ctx.config, submissionSmtp: { ...m.t.ctx.config.submissionSmtp, secure: true } },
    };
    implicit = await startSubmissionRelay(ctx, 0);
  });
  afterAll(async () => {
    await starttls.close();
    await implicit.close();
    await m.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends after STARTTLS; from a client not on loopback, AUTH without TLS is refused with 538 5.7.11', async () => {
    const host = outsideAddress ?? '127.0.0.1';
    const secured = relayTransport(starttls.port, sender.project.secretKey, {
      host,
      requireTLS: true,
      ignoreTLS: false,
      tls: { rejectUnauthorized: false },
    });
    const info = await secured.sendMail({
      from: 'tls@example.test',
      to: 'tls@dest.test',
      subject: 'over STARTTLS',
      text: 'hi',
    });
    secured.close();
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: queued as /);
    if (!outsideAddress) return; // no address but loopback on this machine: the refusal cannot be shown
    const plainText = relayTransport(starttls.port, sender.project.secretKey, {
      host: outsideAddress,
      ignoreTLS: true,
    });
    const refused = await plainText
      .sendMail({ from: 'tls@example.test', to: 'tls@dest.test', subject: 'x', text: 'x' })
      .catch((e: unknown) => e as { responseCode?: number; response?: string });
    plainText.close();
    expect(refused).toMatchObject({ responseCode: 538 });
    expect((refused as { response: string }).response).toMatch(/^538 5\.7\.11 /);
  });

  it('speaks implicit TLS (SUBMISSION_SMTP_SECURE) and serves a renewed certificate without a restart', async () => {
    const secured = relayTransport(implicit.port, sender.project.secretKey, {
      secure: true,
      ignoreTLS: false,
      tls: { rejectUnauthorized: false },
    });
    const info = await secured.sendMail({
      from: 'tls@example.test',
      to: 'implicit@dest.test',
      subject: 'over TLS',
      text: 'hi',
    });
    secured.close();
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: queued as /);
    expect(await peerName(implicit.port)).toBe('relay-one.test');
    makeCertificate('relay-two.test');
    await until(
      async () => (await peerName(implicit.port)) === 'relay-two.test',
      'the renewed certificate to be served',
    );
    await m.sink.waitForRecipient('implicit@dest.test');
  });

  it('refuses to start on certificate files it cannot use, naming the settings', async () => {
    const withFiles = (tlsFiles: { certFile: string; keyFile: string }): AppContext => ({
      ...m.t.ctx,
      config: { ...m.t.ctx.config, submissionSmtp: { ...m.t.ctx.config.submissionSmtp, tls: tlsFiles } },
    });
    const missing = path.join(dir, 'missing.pem');
    await expect(startSubmissionRelay(withFiles({ certFile: missing, keyFile }), 0)).rejects.toThrow(ConfigError);
    await expect(startSubmissionRelay(withFiles({ certFile: missing, keyFile }), 0)).rejects.toThrow(
      `SUBMISSION_TLS_CERT, SUBMISSION_TLS_KEY: ${missing} and ${keyFile} must be readable PEM files`,
    );
    // Both files exist, but the key is not a key (a certificate twice).
    await expect(startSubmissionRelay(withFiles({ certFile, keyFile: certFile }), 0)).rejects.toThrow(
      new RegExp(
        'SUBMISSION_TLS_CERT, SUBMISSION_TLS_KEY: .* must be readable PEM files, ' +
          'the certificate chain and its private key',
      ),
    );
  });
});

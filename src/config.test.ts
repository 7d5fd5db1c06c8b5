import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      mailTransport: 'outbox',
      dnsServers: [],
      rateLimitPerMinute: 1000,
      sendRatePerSecond: 14,
      logLevel: 'info',
      logFormat: undefined,
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('derives the transport and the public URL', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@localhost:2525' }).mailTransport).toBe('smtp');
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://mail.example.com/' }).publicUrl).toBe('https://mail.example.com');
    expect(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, 1.1.1.1' }).dnsServers).toEqual(['127.0.0.1:5353', '1.1.1.1']);
    expect(loadConfig({ SEND_RATE_PER_SECOND: '0' }).sendRatePerSecond).toBe(0);
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes please' })).toThrow(ConfigError);
  });

  it('reads the inbound mail settings: off by default, the MX host from PUBLIC_URL, bounded sizes', () => {
    expect(loadConfig({}).inbound).toEqual({
      port: undefined,
      host: '127.0.0.1',
      mxHost: 'localhost',
      maxBytes: 25 * 1024 * 1024,
      retentionDays: 30,
      maxStoredBytes: 1024 * 1024 * 1024,
      maxClients: 100,
      maxClientsPerAddress: 10,
    });
    expect(loadConfig({ PUBLIC_URL: 'https://Mail.Example.com' }).inbound.mxHost).toBe('mail.example.com');
    expect(
      loadConfig({
        PUBLIC_URL: 'https://mail.example.com',
        INBOUND_MX_HOST: 'mx.example.net',
        INBOUND_SMTP_PORT: '25',
        INBOUND_MAX_MB: '10',
      }).inbound,
    ).toMatchObject({ port: 25, mxHost: 'mx.example.net', maxBytes: 10 * 1024 * 1024 });
    for (const env of [
      { INBOUND_MAX_MB: '0' },
      { INBOUND_RETENTION_DAYS: 'forever' },
      { INBOUND_SMTP_PORT: '70000' },
      { INBOUND_MX_HOST: 'mx host' },
      { INBOUND_MAX_STORED_MB: '0' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });

  it('reads the public-key and link limits and which proxies to trust', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      publicRateLimit: { perKeyPerMinute: 1000, perAddressPerMinute: 120 },
      linkRateLimitPerMinute: 600,
      trustProxy: 'loopback, linklocal, uniquelocal',
      publicUrlConfigured: false,
    });
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(loadConfig({ PUBLIC_URL: 'https://x.example' }).publicUrlConfigured).toBe(true);
  });

  it('takes the SES transport with its SNS topics, and bounds the feedback receiver by default', () => {
    const topics =
      'arn:aws:sns:eu-west-1:123456789012:herald-feedback, arn:aws-cn:sns:cn-north-1:123456789012:other.fifo';
    expect(
      loadConfig({ MAIL_TRANSPORT: 'ses', SES_REGION: 'eu-west-1', SES_SNS_TOPIC_ARNS: topics }).sns.topicArns,
    ).toEqual([
      'arn:aws:sns:eu-west-1:123456789012:herald-feedback',
      'arn:aws-cn:sns:cn-north-1:123456789012:other.fifo',
    ]);
    expect(loadConfig({}).feedbackSmtp).toMatchObject({ maxClients: 100, maxClientsPerAddress: 10 });
  });

  it('reads the submission relay settings: off by default, TLS files in pairs, implicit TLS only with them', () => {
    expect(loadConfig({}).submissionSmtp).toEqual({
      port: undefined,
      host: '127.0.0.1',
      tls: undefined,
      secure: false,
      maxClients: 100,
      maxClientsPerAddress: 10,
      timeoutMs: 60_000,
    });
    const tls = { SUBMISSION_TLS_CERT: 'certs/fullchain.pem', SUBMISSION_TLS_KEY: '/etc/herald/key.pem' };
    expect(
      loadConfig({ SUBMISSION_SMTP_PORT: '465', SUBMISSION_SMTP_SECURE: 'true', ...tls }).submissionSmtp,
    ).toMatchObject({
      port: 465,
      secure: true,
      tls: { certFile: path.resolve('certs/fullchain.pem'), keyFile: '/etc/herald/key.pem' },
    });
    expect(loadConfig({ SUBMISSION_SMTP_PORT: '587', ...tls }).submissionSmtp).toMatchObject({
      port: 587,
      secure: false,
    });
    expect(loadConfig({ SUBMISSION_SMTP_SECURE: '0' }).submissionSmtp.secure).toBe(false);
    expect(loadConfig({ SUBMISSION_SMTP_TIMEOUT_SECONDS: '5' }).submissionSmtp.timeoutMs).toBe(5000);
  });

  it.each([
    [
      'a certificate without its key',
      { SUBMISSION_TLS_CERT: '/etc/herald/fullchain.pem' },
      new RegExp(
        'SUBMISSION_TLS_CERT, SUBMISSION_TLS_KEY: set both ' +
          String.raw`\(the certificate chain and its private key, PEM files\) or neither`,
      ),
    ],
    [
      'a key without its certificate',
      { SUBMISSION_TLS_KEY: '/etc/herald/key.pem' },
      /SUBMISSION_TLS_CERT, SUBMISSION_TLS_KEY: set both/,
    ],
    [
      'implicit TLS without a certificate',
      { SUBMISSION_SMTP_PORT: '465', SUBMISSION_SMTP_SECURE: 'true' },
      /SUBMISSION_SMTP_SECURE: implicit TLS needs SUBMISSION_TLS_CERT and SUBMISSION_TLS_KEY/,
    ],
    [
      'a port that is not a number',
      { SUBMISSION_SMTP_PORT: 'smtp' },
      /SUBMISSION_SMTP_PORT: must be a port number, a whole number from 0 to 65535/,
    ],
    ['a port above 65535', { SUBMISSION_SMTP_PORT: '70000' }, /SUBMISSION_SMTP_PORT: must be a port number/],
    ['a negative port', { SUBMISSION_SMTP_PORT: '-25' }, /SUBMISSION_SMTP_PORT: must be a port number/],
    ['a fractional port', { SUBMISSION_SMTP_PORT: '587.5' }, /SUBMISSION_SMTP_PORT: must be a port number/],
    [
      'SUBMISSION_SMTP_SECURE other than true or false',
      { SUBMISSION_SMTP_SECURE: 'yes' },
      /SUBMISSION_SMTP_SECURE: .*"true"\|"false"/,
    ],
    ['no client allowed', { SUBMISSION_SMTP_MAX_CLIENTS: '0' }, /SUBMISSION_SMTP_MAX_CLIENTS: .*>=1/],
    ['a timeout of zero', { SUBMISSION_SMTP_TIMEOUT_SECONDS: '0' }, /SUBMISSION_SMTP_TIMEOUT_SECONDS: .*>=1/],
  ])('refuses %s in the submission relay settings, saying what to set', (_case, env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/db' }],
    ['SMTP_URL', { SMTP_URL: 'http://localhost' }],
    ['SMTP_URL', { MAIL_TRANSPORT: 'smtp' }],
    ['MAIL_TRANSPORT', { MAIL_TRANSPORT: 'pigeon' }],
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: '0' }],
    ['SEND_RATE_PER_SECOND', { SEND_RATE_PER_SECOND: '-1' }],
    ['ADMIN_TOKEN', { ADMIN_TOKEN: 'short' }],
    ['APP_SECRET', { APP_SECRET: 'short' }],
    ['APP_SECRET_PREVIOUS', { APP_SECRET_PREVIOUS: 'short' }],
    ['DNS_SERVERS', { DNS_SERVERS: 'not a host!' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://x' }],
    ['SES_REGION', { MAIL_TRANSPORT: 'ses' }],
    ['SES_SNS_TOPIC_ARNS', { MAIL_TRANSPORT: 'ses', SES_REGION: 'eu-west-1' }],
    ['SES_SNS_TOPIC_ARNS', { MAIL_TRANSPORT: 'ses', SES_REGION: 'eu-west-1', SES_SNS_TOPIC_ARNS: 'herald-feedback' }],
    ['FEEDBACK_SMTP_MAX_CLIENTS', { FEEDBACK_SMTP_MAX_CLIENTS: '0' }],
    ['FEEDBACK_SMTP_MAX_CLIENTS_PER_ADDRESS', { FEEDBACK_SMTP_MAX_CLIENTS_PER_ADDRESS: 'lots' }],
    ['PUBLIC_RATE_LIMIT_PER_MINUTE', { PUBLIC_RATE_LIMIT_PER_MINUTE: '0' }],
    ['LINK_RATE_LIMIT_PER_MINUTE', { LINK_RATE_LIMIT_PER_MINUTE: 'many' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'every body!' }],
  ])('refuses a bad %s, naming it', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});

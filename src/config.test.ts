import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000, host: '127.0.0.1', publicUrl: 'http://localhost:3000', databaseUrl: undefined, mailTransport: 'outbox',
      dnsServers: [], rateLimitPerMinute: 1000, sendRatePerSecond: 14, logLevel: 'info', logFormat: undefined,
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

  it('reads the public-key and link limits and which proxies to trust', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ publicRateLimit: { perKeyPerMinute: 1000, perAddressPerMinute: 120 }, linkRateLimitPerMinute: 600, trustProxy: 'loopback, linklocal, uniquelocal', publicUrlConfigured: false });
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(loadConfig({ PUBLIC_URL: 'https://x.example' }).publicUrlConfigured).toBe(true);
  });

  it('takes the SES transport with its SNS topics, and bounds the feedback receiver by default', () => {
    const topics = 'arn:aws:sns:eu-west-1:123456789012:herald-feedback, arn:aws-cn:sns:cn-north-1:123456789012:other.fifo';
    expect(loadConfig({ MAIL_TRANSPORT: 'ses', SES_REGION: 'eu-west-1', SES_SNS_TOPIC_ARNS: topics }).sns.topicArns)
      .toEqual(['arn:aws:sns:eu-west-1:123456789012:herald-feedback', 'arn:aws-cn:sns:cn-north-1:123456789012:other.fifo']);
    expect(loadConfig({}).feedbackSmtp).toMatchObject({ maxClients: 100, maxClientsPerAddress: 10 });
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

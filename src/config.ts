import ipaddr from 'ipaddr.js';
import os from 'node:os';
import { z } from 'zod';
import path from 'node:path';

/** The only place that reads process.env: every configuration variable, parsed once and frozen. */

const PORT_MESSAGE = 'must be a port number, a whole number from 0 to 65535';
const port = z.coerce.number({ error: PORT_MESSAGE }).int(PORT_MESSAGE).min(0, PORT_MESSAGE).max(65535, PORT_MESSAGE);
const positiveInt = z.coerce.number().int().min(0);
const transport = z.enum(['outbox', 'smtp', 'ses']);

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_TRANSPORT: transport.optional(),
  DNS_SERVERS: z.string().optional(),
  DNSBL_DOMAIN_ZONES: z.string().optional(),
  DNSBL_IP_ZONES: z.string().optional(),
  SENDING_IPS: z.string().optional(),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  APP_SECRET_PREVIOUS: z.string().min(32, 'must be at least 32 characters').optional(),
  RATE_LIMIT_PER_MINUTE: positiveInt.min(1).default(1000),
  PUBLIC_RATE_LIMIT_PER_MINUTE: positiveInt.min(1).default(1000),
  PUBLIC_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: positiveInt.min(1).default(120),
  LINK_RATE_LIMIT_PER_MINUTE: positiveInt.min(1).default(600),
  TRUST_PROXY: z.string().default('loopback, linklocal, uniquelocal'),
  SEND_RATE_PER_SECOND: positiveInt.default(14),
  SEGMENT_TRACKING_SECONDS: positiveInt.min(1).max(60).default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  SES_REGION: z.string().optional(),
  SES_ENDPOINT: z.url().optional(),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  RETURN_PATH_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name')
    .optional(),
  SPF_INCLUDE: z
    .string()
    .regex(
      /^\s*[\w.:/-]+(\s*,\s*[\w.:/-]+)*\s*$/,
      'must be a comma list of host names (SPF include:) or IP addresses/ranges',
    )
    .optional(),
  DMARC_RUA: z.email('must be an email address').optional(),
  FEEDBACK_SMTP_PORT: port.optional(),
  FEEDBACK_SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  FEEDBACK_SMTP_MAX_CLIENTS: positiveInt.min(1).max(100_000).default(100),
  FEEDBACK_SMTP_MAX_CLIENTS_PER_ADDRESS: positiveInt.min(1).max(100_000).default(10),
  SUBMISSION_SMTP_PORT: port.optional(),
  SUBMISSION_SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  SUBMISSION_TLS_CERT: z.string().min(1).optional(),
  SUBMISSION_TLS_KEY: z.string().min(1).optional(),
  SUBMISSION_SMTP_SECURE: z.enum(['true', 'false', '1', '0']).default('false'),
  SUBMISSION_SMTP_MAX_CLIENTS: positiveInt.min(1).max(100_000).default(100),
  SUBMISSION_SMTP_MAX_CLIENTS_PER_ADDRESS: positiveInt.min(1).max(100_000).default(10),
  SUBMISSION_SMTP_TIMEOUT_SECONDS: positiveInt.min(1).max(3600).default(60),
  INBOUND_SMTP_PORT: port.optional(),
  INBOUND_SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  INBOUND_MX_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name')
    .optional(),
  INBOUND_MAX_MB: positiveInt.min(1).max(1024).default(25),
  INBOUND_RETENTION_DAYS: positiveInt.min(1).max(36_500).default(30),
  INBOUND_MAX_STORED_MB: positiveInt.min(1).max(100_000_000).default(1024),
  RETENTION_EMAIL_CONTENT_DAYS: positiveInt.min(1).max(36_500).default(90),
  RETENTION_EVENTS_DAYS: positiveInt.min(1).max(36_500).optional(),
  INBOUND_SMTP_MAX_CLIENTS: positiveInt.min(1).max(100_000).default(100),
  INBOUND_SMTP_MAX_CLIENTS_PER_ADDRESS: positiveInt.min(1).max(100_000).default(10),
  SES_SNS_TOPIC_ARNS: z.string().optional(),
  SES_SNS_CERT_HOSTS: z.string().optional(),
  SES_SNS_CA_FILE: z.string().optional(),
  SEND_RETRY_LIMIT: positiveInt.max(50).default(10),
  SEND_THREADS: positiveInt.max(64).optional(),
  HERALD_TEST_FAULT: z.enum(['kill-after-send-commit', 'kill-after-relay-commit', 'kill-mid-bulk-batch']).optional(),
  SEND_BATCH_SIZE: positiveInt.min(1).max(1000).default(100),
  SEND_MAX_IN_FLIGHT: positiveInt.min(1).max(10000).default(200),
  SEND_MAX_IN_FLIGHT_ATTACHMENT_MB: positiveInt.min(1).max(4096).default(32),
  SEND_LEASE_SECONDS: positiveInt.min(3).max(3600).default(15),
  SEND_RETRY_DELAY_SECONDS: positiveInt.min(1).default(60),
  SEND_RETRY_DELAY_MAX_SECONDS: positiveInt.min(1).default(4 * 3600),
  TRANSPORT_BACKOFF_SECONDS: positiveInt.min(1).max(600).default(30),
  TRANSPORT_CONNECT_TIMEOUT_SECONDS: positiveInt.min(1).max(300).default(10),
  TRANSPORT_GREETING_TIMEOUT_SECONDS: positiveInt.min(1).max(300).default(30),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false', '1', '0']).default('false'),
  EMAIL_TIMELINE: z.enum(['true', 'false', '1', '0']).default('true'),
  RENDER_BUDGET_MS: positiveInt.min(100).default(5_000),
  RENDER_BUDGET_CHARS: positiveInt.min(1_000).default(20_000_000),
  SESSION_IDLE_HOURS: positiveInt.min(1).max(720).default(12),
  RETENTION_AUDIT_DAYS: positiveInt.min(1).max(36_500).default(365),
  RETENTION_LOGS_DAYS: positiveInt.min(1).max(36_500).default(7),
  REQUEST_LOG: z.enum(['true', 'false', '1', '0']).default('true'),
  SYSTEM_EMAIL_FROM: z.email('must be an email address').optional(),
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_AUTO_JOIN: z
    .string()
    .regex(/^[0-9a-f-]{36}:(owner|admin|editor|viewer)$/i, 'must be <projectId>:<role> (owner, admin, editor, viewer)')
    .optional(),
  OIDC_ALLOWED_DOMAINS: z.string().optional(),
  OIDC_ONLY: z.enum(['true', 'false', '1', '0']).default('false'),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** PUBLIC_URL was set (the OpenAPI document names a server only then). */
  publicUrlConfigured: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailTransport: 'outbox' | 'smtp' | 'ses';
  dnsServers: string[];
  /** DNS blocklists of domains (DBL zones) that link and sender domains are looked up in; empty = none. */
  dnsblDomainZones: string[];
  /** DNS blocklists of IP addresses that SENDING_IPS are looked up in. */
  dnsblIpZones: string[];
  /** The public addresses this instance's mail leaves from (looked up in the IP blocklists); empty: unknown. */
  sendingIps: string[];
  adminToken: string | undefined;
  appSecret: string | undefined;
  /** The APP_SECRET before a rotation: transport secrets sealed under it still open until `herald reseal`. */
  appSecretPrevious: string | undefined;
  rateLimitPerMinute: number;
  /** Public-key (pk_) traffic: per key, and per client address within a project; apart from the project's limit. */
  publicRateLimit: { perKeyPerMinute: number; perAddressPerMinute: number };
  /** Requests per minute per client address on the links inside mail (/t/o, /t/c, /unsubscribe). */
  linkRateLimitPerMinute: number;
  /** Fastify's trustProxy: which proxies' X-Forwarded-For to believe for the client address. */
  trustProxy: boolean | string;
  sendRatePerSecond: number;
  logLevel: string;
  /**
   * How log lines look: `pretty` (readable, for a terminal), `json` (one object a line), or unset: pretty on a
   * terminal.
   */
  logFormat: 'pretty' | 'json' | undefined;
  ses: {
    region: string | undefined;
    endpoint: string | undefined;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
  };
  /** Host a `bounces.<domain>` CNAME points at, when a bounce-handling host exists; enables VERP return paths. */
  returnPathHost: string | undefined;
  /** What the suggested SPF record authorizes: SPF domains to `include:` and sending IPs/ranges (empty = none). */
  spfInclude: readonly string[];
  /** Where the suggested DMARC record asks for aggregate reports (`rua=mailto:`); unset = no reports. */
  dmarcRua: string | undefined;
  /**
   * The bounce and complaint receiver (worker role); no port = not started. It faces the internet on port 25,
   * so connections are bounded in total and per client address.
   */
  feedbackSmtp: { port: number | undefined; host: string; maxClients: number; maxClientsPerAddress: number };
  /**
   * The SMTP submission relay (off without a port): TLS from PEM files re-read when they change, implicit TLS
   * (`secure`) or STARTTLS, connection bounds, and how long an idle client may hold a connection.
   */
  submissionSmtp: {
    port: number | undefined;
    host: string;
    tls: { certFile: string; keyFile: string } | undefined;
    secure: boolean;
    maxClients: number;
    maxClientsPerAddress: number;
    timeoutMs: number;
  };
  /** Days the bodies and attachments of finished emails are kept, and events (null: forever). */
  retention: { emailContentDays: number; eventsDays: number | null };
  /**
   * The inbound mail listener (serve and worker roles); no port = off. The same port as the feedback receiver
   * means one listener for both. `mxHost` is what the domains' MX records point at; `maxBytes` bounds a message,
   * `maxStoredBytes` what one project's unexpired messages may keep.
   */
  inbound: {
    port: number | undefined;
    host: string;
    mxHost: string;
    maxBytes: number;
    retentionDays: number;
    maxStoredBytes: number;
    maxClients: number;
    maxClientsPerAddress: number;
  };
  /** Amazon SNS notifications at POST /feedback/ses (SES transport only). */
  sns: {
    /** The only topics confirmed and accepted; never empty with the SES transport. */
    topicArns: string[];
    /**
     * Hosts (host or host:port) allowed to serve signing certificates and subscribe URLs besides
     * sns.<region>.amazonaws.com.
     */
    extraCertHosts: string[];
    /** A PEM file of extra trusted CAs for those hosts (a private, SNS-compatible endpoint; tests). */
    caFile: string | undefined;
  };
  /**
   * A tracked DYNAMIC segment's members are recomputed (entries and exits recorded) at most this long after the last
   * time.
   */
  segmentTrackingSeconds: number;
  /** Temporary delivery failures: attempts after the first, first delay and longest delay (exponential in between). */
  sendRetry: { limit: number; delaySeconds: number; maxDelaySeconds: number };
  /** A DOWN transport's first back-off before its probe (doubling up to 10 minutes). */
  transportBackoffSeconds: number;
  /**
   * A project SMTP transport's limits: for its connection (TCP, and TLS when implicit) and then for the relay's
   * greeting; a relay over either has failed to connect.
   */
  transportTimeouts: { connectSeconds: number; greetingSeconds: number };
  /** Crash tests only: a point where the process kills itself (HERALD_TEST_FAULT); never set in production. */
  testFault: 'kill-after-send-commit' | 'kill-after-relay-commit' | 'kill-mid-bulk-batch' | undefined;
  /**
   * The delivery engine: compose threads (0 = inline), emails claimed per statement, messages and attachment bytes in
   * flight, lease length.
   */
  sendEngine: {
    threads: number;
    batchSize: number;
    maxInFlight: number;
    maxInFlightAttachmentBytes: number;
    leaseSeconds: number;
  };
  /** Outbound requests to customer URLs may reach loopback, private and link-local addresses (self-hosting, tests). */
  webhookAllowPrivate: boolean;
  /** Whether each email's timeline is written (EMAIL_TIMELINE, on by default). */
  emailTimeline: boolean;
  /**
   * What one request's template renders may take together (/v1/send, previews): wall-clock ms and characters of output.
   */
  renderBudget: { timeMs: number; maxChars: number };
  /** Signed-in people: a session ends after this many hours without a request (and after 30 days in any case). */
  sessionIdleHours: number;
  /** Days audit entries are kept. */
  auditRetentionDays: number;
  /** The request log: whether API requests are logged (REQUEST_LOG), and the days entries are kept. */
  requestLog: { enabled: boolean; retentionDays: number };
  /** The sender of the instance's own mail (invites, password resets); unset: herald@herald.localhost on the outbox. */
  systemEmailFrom: string | undefined;
  /**
   * Single sign-on with an OpenID Connect issuer (off unless issuer, client id and secret are all set); `autoJoin`
   * adds addresses of `allowedDomains` to a project with a role; `only` turns password sign-in off for non-admins.
   */
  oidc: {
    issuer: string;
    clientId: string;
    clientSecret: string;
    autoJoin: { projectId: string; role: 'owner' | 'admin' | 'editor' | 'viewer' } | null;
    allowedDomains: string[];
    only: boolean;
  } | null;
}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * TRUST_PROXY: `true` / `false`, or a comma list of addresses, CIDR ranges and the
 * names loopback, linklocal, uniquelocal. The default trusts proxies on private networks only, so a client
 * on the internet cannot pick its own address (and so its rate-limit bucket) with X-Forwarded-For.
 */
function parseTrustProxy(value: string): boolean | string {
  const v = value.trim();
  if (v === 'true' || v === 'false') return v === 'true';
  if (!/^[\w.:/]+(\s*,\s*[\w.:/]+)*$/.test(v))
    throw new ConfigError('Invalid configuration:\n  TRUST_PROXY: must be true, false or a comma list of addresses');
  return v;
}

/** arn:<partition>:sns:<region>:<account id>:<topic name> */
export const SNS_TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;

/**
 * The SES transport needs its region, and the SNS topics whose notifications Herald accepts: without a list,
 * anyone with an AWS account could subscribe POST /feedback/ses to a topic of their own and report bounces
 * and complaints for any email whose Message-ID they have seen.
 */
function checkSesSettings(region: string | undefined, topicArns: string[]): void {
  const problems: string[] = [];
  if (!region) problems.push('SES_REGION: required when MAIL_TRANSPORT is ses');
  if (topicArns.length === 0) {
    problems.push(
      'SES_SNS_TOPIC_ARNS: required when MAIL_TRANSPORT is ses: the comma-separated ' +
        'ARNs of the SNS topics that carry ' +
        'your SES bounce, complaint and delivery notifications; POST /feedback/ses ' +
        'accepts no other topic, so no other AWS account can report on your emails',
    );
  }
  for (const arn of topicArns.filter((value) => !SNS_TOPIC_ARN.test(value)))
    problems.push(`SES_SNS_TOPIC_ARNS: "${arn}" is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)`);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/** The relay's TLS files come in pairs, and implicit TLS needs them. */
function submissionTls(
  e: { SUBMISSION_TLS_CERT?: string | undefined; SUBMISSION_TLS_KEY?: string | undefined },
  secure: boolean,
): { certFile: string; keyFile: string } | undefined {
  if (!e.SUBMISSION_TLS_CERT !== !e.SUBMISSION_TLS_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  SUBMISSION_TLS_CERT, SUBMISSION_TLS_KEY: set both (the ' +
        'certificate chain and its private key, PEM files) or neither',
    );
  }
  if (secure && !e.SUBMISSION_TLS_CERT)
    throw new ConfigError(
      'Invalid configuration:\n  SUBMISSION_SMTP_SECURE: implicit TLS needs SUBMISSION_TLS_CERT and SUBMISSION_TLS_KEY',
    );
  return e.SUBMISSION_TLS_CERT && e.SUBMISSION_TLS_KEY
    ? { certFile: path.resolve(e.SUBMISSION_TLS_CERT), keyFile: path.resolve(e.SUBMISSION_TLS_KEY) }
    : undefined;
}

/** Single sign-on needs its three settings together; auto-join needs the domains it applies to. */
function oidcSettings(e: {
  OIDC_ISSUER?: string | undefined;
  OIDC_CLIENT_ID?: string | undefined;
  OIDC_CLIENT_SECRET?: string | undefined;
  OIDC_AUTO_JOIN?: string | undefined;
  OIDC_ALLOWED_DOMAINS?: string | undefined;
  OIDC_ONLY: string;
}): Config['oidc'] {
  const given = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].filter(Boolean).length;
  if (given === 0) {
    if (e.OIDC_ONLY === 'true' || e.OIDC_ONLY === '1')
      throw new ConfigError(
        'Invalid configuration:\n  OIDC_ONLY: needs single sign-on (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)',
      );
    return null;
  }
  if (given < 3)
    throw new ConfigError(
      'Invalid configuration:\n  OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three or none',
    );
  const allowedDomains = list(e.OIDC_ALLOWED_DOMAINS).map((d) => d.toLowerCase());
  let autoJoin: NonNullable<Config['oidc']>['autoJoin'] = null;
  if (e.OIDC_AUTO_JOIN) {
    if (allowedDomains.length === 0)
      throw new ConfigError(
        'Invalid configuration:\n  OIDC_AUTO_JOIN: needs OIDC_ALLOWED_DOMAINS, the ' +
          'address domains whose people may join',
      );
    const [projectId, role] = e.OIDC_AUTO_JOIN.split(':') as [string, string];
    autoJoin = {
      projectId: projectId.toLowerCase(),
      role: role.toLowerCase() as 'owner' | 'admin' | 'editor' | 'viewer',
    };
  }
  return Object.freeze({
    issuer: e.OIDC_ISSUER!,
    clientId: e.OIDC_CLIENT_ID!,
    clientSecret: e.OIDC_CLIENT_SECRET!,
    autoJoin,
    allowedDomains,
    only: e.OIDC_ONLY === 'true' || e.OIDC_ONLY === '1',
  });
}

/** Parses an environment into a frozen Config; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const cleaned = Object.fromEntries(
    Object.keys(envSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const mailTransport = e.MAIL_TRANSPORT ?? (e.SMTP_URL ? 'smtp' : 'outbox');
  if (mailTransport === 'smtp' && !e.SMTP_URL) {
    throw new ConfigError('Invalid configuration:\n  SMTP_URL: required when MAIL_TRANSPORT is smtp');
  }
  const topicArns = list(e.SES_SNS_TOPIC_ARNS);
  if (mailTransport === 'ses') checkSesSettings(e.SES_REGION, topicArns);
  const submissionSecure = e.SUBMISSION_SMTP_SECURE === 'true' || e.SUBMISSION_SMTP_SECURE === '1';
  const dnsServers = (e.DNS_SERVERS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const server of dnsServers) {
    if (!/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+|[0-9a-fA-F:]+)(:\d{1,5})?$/.test(server)) {
      throw new ConfigError(`Invalid configuration:\n  DNS_SERVERS: "${server}" is not host or host:port`);
    }
  }
  const sendingIps = list(e.SENDING_IPS);
  for (const ip of sendingIps) {
    if (!ipaddr.isValid(ip))
      throw new ConfigError(`Invalid configuration:\n  SENDING_IPS: "${ip}" is not an IP address`);
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    publicUrlConfigured: e.PUBLIC_URL !== undefined,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailTransport,
    dnsServers,
    dnsblDomainZones: e.DNSBL_DOMAIN_ZONES === undefined ? ['dbl.spamhaus.org'] : list(e.DNSBL_DOMAIN_ZONES),
    dnsblIpZones: e.DNSBL_IP_ZONES === undefined ? ['zen.spamhaus.org'] : list(e.DNSBL_IP_ZONES),
    sendingIps,
    adminToken: e.ADMIN_TOKEN,
    appSecret: e.APP_SECRET,
    appSecretPrevious: e.APP_SECRET_PREVIOUS,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    publicRateLimit: Object.freeze({
      perKeyPerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE,
      perAddressPerMinute: e.PUBLIC_RATE_LIMIT_PER_ADDRESS_PER_MINUTE,
    }),
    linkRateLimitPerMinute: e.LINK_RATE_LIMIT_PER_MINUTE,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    sendRatePerSecond: e.SEND_RATE_PER_SECOND,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    ses: Object.freeze({
      region: e.SES_REGION,
      endpoint: e.SES_ENDPOINT,
      accessKeyId: e.AWS_ACCESS_KEY_ID,
      secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
    }),
    returnPathHost: e.RETURN_PATH_HOST,
    spfInclude: Object.freeze(list(e.SPF_INCLUDE)),
    dmarcRua: e.DMARC_RUA,
    feedbackSmtp: Object.freeze({
      port: e.FEEDBACK_SMTP_PORT,
      host: e.FEEDBACK_SMTP_HOST,
      maxClients: e.FEEDBACK_SMTP_MAX_CLIENTS,
      maxClientsPerAddress: e.FEEDBACK_SMTP_MAX_CLIENTS_PER_ADDRESS,
    }),
    submissionSmtp: Object.freeze({
      port: e.SUBMISSION_SMTP_PORT,
      host: e.SUBMISSION_SMTP_HOST,
      tls: submissionTls(e, submissionSecure),
      secure: submissionSecure,
      maxClients: e.SUBMISSION_SMTP_MAX_CLIENTS,
      maxClientsPerAddress: e.SUBMISSION_SMTP_MAX_CLIENTS_PER_ADDRESS,
      timeoutMs: e.SUBMISSION_SMTP_TIMEOUT_SECONDS * 1000,
    }),
    retention: Object.freeze({
      emailContentDays: e.RETENTION_EMAIL_CONTENT_DAYS,
      eventsDays: e.RETENTION_EVENTS_DAYS ?? null,
    }),
    inbound: Object.freeze({
      port: e.INBOUND_SMTP_PORT,
      host: e.INBOUND_SMTP_HOST,
      mxHost: (e.INBOUND_MX_HOST ?? new URL(publicUrl).hostname).toLowerCase(),
      maxBytes: e.INBOUND_MAX_MB * 1024 * 1024,
      retentionDays: e.INBOUND_RETENTION_DAYS,
      maxStoredBytes: e.INBOUND_MAX_STORED_MB * 1024 * 1024,
      maxClients: e.INBOUND_SMTP_MAX_CLIENTS,
      maxClientsPerAddress: e.INBOUND_SMTP_MAX_CLIENTS_PER_ADDRESS,
    }),
    sns: Object.freeze({ topicArns, extraCertHosts: list(e.SES_SNS_CERT_HOSTS), caFile: e.SES_SNS_CA_FILE }),
    sendRetry: Object.freeze({
      limit: e.SEND_RETRY_LIMIT,
      delaySeconds: e.SEND_RETRY_DELAY_SECONDS,
      maxDelaySeconds: e.SEND_RETRY_DELAY_MAX_SECONDS,
    }),
    segmentTrackingSeconds: e.SEGMENT_TRACKING_SECONDS,
    transportBackoffSeconds: e.TRANSPORT_BACKOFF_SECONDS,
    transportTimeouts: Object.freeze({
      connectSeconds: e.TRANSPORT_CONNECT_TIMEOUT_SECONDS,
      greetingSeconds: e.TRANSPORT_GREETING_TIMEOUT_SECONDS,
    }),
    testFault: e.HERALD_TEST_FAULT,
    sendEngine: Object.freeze({
      // One compose thread per core: the main thread claims, records and speaks SMTP, and mostly waits on
      // sockets while doing so (about half idle in a profile of a campaign), so it shares a core well.
      threads: e.SEND_THREADS ?? os.availableParallelism(),
      batchSize: e.SEND_BATCH_SIZE,
      maxInFlight: e.SEND_MAX_IN_FLIGHT,
      maxInFlightAttachmentBytes: e.SEND_MAX_IN_FLIGHT_ATTACHMENT_MB * 1024 * 1024,
      leaseSeconds: e.SEND_LEASE_SECONDS,
    }),
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true' || e.WEBHOOK_ALLOW_PRIVATE === '1',
    emailTimeline: e.EMAIL_TIMELINE === 'true' || e.EMAIL_TIMELINE === '1',
    renderBudget: Object.freeze({ timeMs: e.RENDER_BUDGET_MS, maxChars: e.RENDER_BUDGET_CHARS }),
    sessionIdleHours: e.SESSION_IDLE_HOURS,
    auditRetentionDays: e.RETENTION_AUDIT_DAYS,
    requestLog: Object.freeze({
      enabled: e.REQUEST_LOG === 'true' || e.REQUEST_LOG === '1',
      retentionDays: e.RETENTION_LOGS_DAYS,
    }),
    systemEmailFrom: e.SYSTEM_EMAIL_FROM,
    oidc: oidcSettings(e),
  });
}

/**
 * `herald mcp`: the running Herald to relay to (HERALD_URL, default http://localhost:3000) and the key
 * (HERALD_API_KEY).
 */
export function loadMcpClientConfig(env: Record<string, string | undefined> = process.env): {
  url: string;
  apiKey: string;
} {
  const url = env.HERALD_URL ?? 'http://localhost:3000';
  if (!/^https?:\/\/[^\s/]+/.test(url) || !URL.canParse(url))
    throw new ConfigError(`HERALD_URL must be an http(s) URL such as http://localhost:3000 (got ${url})`);
  const apiKey = env.HERALD_API_KEY;
  if (!apiKey)
    throw new ConfigError('HERALD_API_KEY is not set: give the agent a secret key (sk_…) of the project it works in');
  if (apiKey.startsWith('pk_'))
    throw new ConfigError(
      'HERALD_API_KEY is a public key (pk_…), which can only track events: give the agent a secret key (sk_…)',
    );
  if (!/^sk_\S+$/.test(apiKey))
    throw new ConfigError('HERALD_API_KEY must be a secret key (sk_…) of the project the agent works in');
  return { url, apiKey };
}

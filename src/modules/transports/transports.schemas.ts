import { isIP } from 'node:net';
import { z } from 'zod';
import { SNS_TOPIC_ARN } from '../../config.ts';
import { emailAddressSchema, parseAddress } from '../../lib/email-address.ts';
import { isoDate } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';
import type { MailboxProvider } from '../../db/schema/index.ts';
import { MAILBOX_PROVIDERS } from '../../mail/providers.ts';

export const MAX_RULES = 100;
export const MAX_FALLBACKS = 5;
export const MAX_CONNECTIONS = 50;

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Letters, digits, punctuation and spaces: no control characters (CR/LF would break the AUTH exchange). */
const PRINTABLE = /^[^\p{Cc}]+$/u;

/** A relay's host: a DNS name or a literal IPv4/IPv6 address, lower-cased. */
const hostSchema = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .transform((value) => value.toLowerCase().replace(/^\[(.*)\]$/, '$1'))
  .refine(
    (value) =>
      isIP(value) !== 0 ||
      value
        .replace(/\.$/, '')
        .split('.')
        .every((l) => HOST_LABEL.test(l)),
    {
      error: 'must be a host name (letters, digits, inner hyphens, dots) or an IP address',
    },
  );

const portSchema = z
  .number({ error: 'must be a port number' })
  .int('must be a whole number from 1 to 65535')
  .min(1, 'must be a whole number from 1 to 65535')
  .max(65535, 'must be a whole number from 1 to 65535');

const usernameSchema = z.string().min(1).max(255).regex(PRINTABLE, 'must not contain control characters');

const secretString = (max: number) =>
  z.string().min(1).max(max).regex(PRINTABLE, 'must not contain control characters').meta({ writeOnly: true });

const regionSchema = z
  .string()
  .regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'must be an AWS region such as us-east-1 or eu-west-2');

const accessKeyIdSchema = z.string().regex(/^[A-Z0-9]{16,128}$/, 'must be an AWS access key id such as AKIA…');

const topicArnsSchema = z
  .array(z.string().max(400).regex(SNS_TOPIC_ARN, 'must be an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)'))
  .max(20);

const endpointSchema = z
  .string()
  .max(2048)
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');

/** What an SMTP relay is reached with, besides its password. */
export const smtpSettings = z.strictObject({
  host: hostSchema,
  port: portSchema,
  secure: z.boolean().optional().meta({ description: 'Implicit TLS (port 465); otherwise STARTTLS when offered' }),
  username: usernameSchema.optional(),
});

/** What SES is reached with, besides its secret access key. */
export const sesSettings = z.strictObject({
  region: regionSchema,
  accessKeyId: accessKeyIdSchema,
  snsTopicArns: topicArnsSchema.optional().meta({
    description: 'The SNS topics of its bounce, complaint and delivery notifications (POST /feedback/ses)',
  }),
  endpoint: endpointSchema.optional().meta({ description: 'Another SES address (a VPC endpoint)' }),
});

const password = secretString(1024).meta({ description: 'Write-only: never answered' });
const secretAccessKey = secretString(256).meta({ description: 'Write-only: never answered' });

const limits = {
  maxPerSecond: z
    .number()
    .positive('must be more than 0')
    .max(100_000)
    .meta({ description: 'The most messages handed to it per second, across all workers' }),
  maxConnections: z
    .number()
    .int()
    .min(1)
    .max(MAX_CONNECTIONS)
    .meta({ description: 'The most connections a worker keeps open to it (SMTP)' }),
};

export const createTransportBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('smtp'),
    name: nameSchema(100),
    config: smtpSettings.extend({ password: password.optional() }),
    maxPerSecond: limits.maxPerSecond.optional(),
    maxConnections: limits.maxConnections.optional(),
  }),
  z.strictObject({
    type: z.literal('ses'),
    name: nameSchema(100),
    config: sesSettings.extend({ secretAccessKey }),
    maxPerSecond: limits.maxPerSecond.optional(),
    maxConnections: limits.maxConnections.optional(),
  }),
  z.strictObject({
    type: z.literal('outbox'),
    name: nameSchema(100),
    config: z.strictObject({}).optional(),
    maxPerSecond: limits.maxPerSecond.optional(),
    maxConnections: limits.maxConnections.optional(),
  }),
]);

/** A change of settings: the given fields replace the stored ones (null removes an optional one). */
export const updateTransportBody = z.strictObject({
  name: nameSchema(100).optional(),
  config: z
    .strictObject({
      host: hostSchema.optional(),
      port: portSchema.optional(),
      secure: z.boolean().nullable().optional(),
      username: usernameSchema.nullable().optional(),
      password: password.nullable().optional(),
      region: regionSchema.optional(),
      accessKeyId: accessKeyIdSchema.optional(),
      secretAccessKey: secretAccessKey.optional(),
      snsTopicArns: topicArnsSchema.nullable().optional(),
      endpoint: endpointSchema.nullable().optional(),
    })
    .optional(),
  maxPerSecond: limits.maxPerSecond.nullable().optional(),
  maxConnections: limits.maxConnections.nullable().optional(),
});

export type CreateTransportInput = z.infer<typeof createTransportBody>;
export type UpdateTransportInput = z.infer<typeof updateTransportBody>;

const transportState = z.enum(['HEALTHY', 'DEGRADED', 'DOWN']);

export const transportConfigView = z
  .object({
    host: z.string().optional(),
    port: z.number().int().optional(),
    secure: z.boolean().optional(),
    username: z.string().optional(),
    hasPassword: z.boolean().optional().meta({ description: 'SMTP: a password is set (it is never shown)' }),
    region: z.string().optional(),
    accessKeyId: z.string().optional(),
    hasSecretAccessKey: z.boolean().optional().meta({ description: 'SES: a secret access key is set (never shown)' }),
    snsTopicArns: z.array(z.string()).optional(),
    endpoint: z.string().optional(),
  })
  .meta({ id: 'TransportConfig', description: 'The non-secret settings of the transport' });

export const transportSchema = z
  .object({
    id: z.string().meta({ description: '`default` for the instance’s own transport' }),
    name: z.string(),
    type: z.enum(['smtp', 'ses', 'outbox']),
    builtIn: z.boolean().meta({ description: 'The instance’s own transport (configuration): not changed here' }),
    config: transportConfigView,
    maxPerSecond: z.number().nullable(),
    maxConnections: z.number().int().nullable(),
    state: transportState,
    since: isoDate.nullable().meta({ description: 'When the state began; null while it never failed' }),
    lastError: z.string().nullable(),
    lastErrorAt: isoDate.nullable(),
    retryAt: isoDate.nullable().meta({ description: 'While DOWN: when one connection is tried again' }),
    failovers: z.number().int().meta({ description: 'Messages that went to a fallback instead of this transport' }),
    lastFailoverAt: isoDate.nullable(),
    createdAt: isoDate.nullable().meta({ description: 'Null for the built-in transport' }),
    updatedAt: isoDate.nullable(),
  })
  .meta({ id: 'Transport' });

export type TransportView = z.infer<typeof transportSchema>;

export const transportTestSchema = z
  .object({
    ok: z.boolean(),
    message: z.string().meta({ description: 'What the transport answered (a failure names the reply or the cause)' }),
    durationMs: z.number().int(),
  })
  .meta({ id: 'TransportTest' });

/** A domain condition, stored as domains are (lower-case, punycode). */
const domainCondition = z
  .string()
  .max(253)
  .transform((value, check) => {
    const parsed = parseAddress(`postmaster@${value.trim().replace(/\.$/, '')}`);
    if (parsed.ok) return parsed.domain;
    check.addIssue({ code: 'custom', message: `must be a domain name: ${parsed.reason}` });
    return z.NEVER;
  });

const transportRef = z.string().min(1).max(64);
const providerSchema = z.enum(MAILBOX_PROVIDERS as [MailboxProvider, ...MailboxProvider[]]);

export const routingRuleSchema = z
  .strictObject({
    match: z.strictObject({
      stream: z.enum(['transactional', 'marketing']).optional(),
      senderDomain: domainCondition.optional(),
      recipientDomain: domainCondition.optional(),
      recipientProvider: providerSchema.optional(),
      tag: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,256}(:[A-Za-z0-9_-]{1,256})?$/, 'must be a tag name, or name:value')
        .optional()
        .meta({ description: 'A tag of the email: its name, or `name:value`' }),
    }),
    transportId: transportRef.meta({ description: 'A transport of this project, or `default`' }),
    fallbackIds: z
      .array(transportRef)
      .max(MAX_FALLBACKS)
      .optional()
      .meta({ description: 'Tried in order while the transport is down' }),
  })
  .superRefine((rule, check) => {
    const seen = new Set([rule.transportId]);
    for (const [at, id] of (rule.fallbackIds ?? []).entries()) {
      if (seen.has(id))
        check.addIssue({
          code: 'custom',
          path: ['fallbackIds', at],
          message:
            id === rule.transportId
              ? 'a fallback may not be the rule’s own transport (a loop)'
              : 'a fallback may appear once (a loop)',
          params: { reason: 'fallback_loop' },
        });
      seen.add(id);
    }
  })
  .meta({ id: 'RoutingRule' });

export const putRoutingBody = z.strictObject({
  rules: z.array(routingRuleSchema).max(MAX_RULES),
  defaultTransportId: transportRef
    .optional()
    .meta({ description: 'Where mail no rule matches goes (default: `default`, the instance’s transport)' }),
});

export const routingSchema = z
  .object({
    rules: z.array(
      z.object({
        match: z.object({
          stream: z.enum(['transactional', 'marketing']).optional(),
          senderDomain: z.string().optional(),
          recipientDomain: z.string().optional(),
          recipientProvider: providerSchema.optional(),
          tag: z.string().optional(),
        }),
        transportId: z.string(),
        fallbackIds: z.array(z.string()).optional(),
      }),
    ),
    defaultTransportId: z.string(),
  })
  .meta({ id: 'Routing' });

export const routingTestBody = z.strictObject({
  from: emailAddressSchema,
  to: emailAddressSchema,
  stream: z.enum(['transactional', 'marketing']).optional(),
  tags: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be 1 to 256 letters, digits, _ or -'),
        value: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be 1 to 256 letters, digits, _ or -'),
      }),
    )
    .max(20)
    .optional(),
});

export const routingTestSchema = z
  .object({
    transportId: z.string(),
    transportName: z.string(),
    fallbackIds: z.array(z.string()),
    rule: z.number().int().nullable().meta({ description: 'The index of the rule that matched; null: none did' }),
    provider: providerSchema,
    stream: z.enum(['transactional', 'marketing']),
    states: z.record(z.string(), transportState).meta({ description: 'The state of each transport of the route' }),
  })
  .meta({ id: 'RoutingTest' });

/** What the API reference says about each transport and routing route, by operationId. */
export const transportRouteDocs = {
  listTransports:
    'The built-in `default` (the instance’s MAIL_TRANSPORT) first, then the project’s own, newest first. ' +
    'Secrets are never shown: `config.hasPassword` / `config.hasSecretAccessKey` say whether one is set.',
  createTransport:
    'An SMTP relay `{host, port, secure?, username?, password?}`, Amazon SES `{region, accessKeyId, ' +
    'secretAccessKey, snsTopicArns?, endpoint?}` or an outbox `{}`. Secrets are sealed with APP_SECRET and never ' +
    'answered. Names are unique in the project (409). Unknown fields are refused (422).',
  updateTransport:
    'Changes only the fields given (null removes an optional one); a given password or secret access key ' +
    'replaces the stored one. Workers use the new settings within about a second. `default` cannot be changed (409).',
  deleteTransport:
    'Deletes the transport and its health record; 409 naming the rule or default that still routes mail to it.',
  testTransport:
    'Opens one connection (SMTP: with AUTH; SES: GetAccount), within 15 s, and closes it. A failure is a 200 ' +
    'with `ok: false` and the reply; secrets are removed from the message.',
  getRouting: 'The project’s rules and default transport (`{rules: [], defaultTransportId: "default"}` when none).',
  putRouting:
    'Replaces the rules (at most 100; the first that matches wins) and the default transport. Every transportId and ' +
    'fallbackId must be `default` or a transport of this project (422 naming the field); a fallback that repeats ' +
    'the rule’s transport or another fallback is a loop (422); at most 5 fallbacks a rule.',
  testRouting:
    'Which transport an email from `from` to `to` would take now: the rule that matches (null: the default), ' +
    'the fallbacks, the recipient’s mailbox provider (from its MX hosts) and the state of each transport.',
} as const;

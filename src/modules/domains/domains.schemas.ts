import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';

export const domainStatus = z.enum(['PENDING', 'VERIFIED', 'FAILED', 'TEMPORARY_FAILURE']);

export const domainRecordSchema = z.object({
  purpose: z.enum(['DKIM', 'SPF', 'DMARC', 'DMARC_REPORTS', 'TLS_REPORTS', 'RETURN_PATH', 'INBOUND', 'TRACKING']),
  type: z.enum(['TXT', 'CNAME', 'MX']),
  name: z.string(),
  value: z.string(),
  values: z.array(z.string()).optional().describe('The TXT value split into strings of at most 255 characters'),
  required: z.boolean(),
  status: z.enum(['PENDING', 'VERIFIED', 'FAILED']),
  reason: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Why the last check did not find the record as planned, e.g. "no TXT record found at …"; null once it matched',
    ),
});

/** Each mailbox provider's value in a domain's limits (the providers of src/mail/providers.ts). */
const perProvider = <T extends z.ZodType>(value: T) => ({
  gmail: value,
  microsoft: value,
  yahoo: value,
  apple: value,
  other: value,
});

/** The most a provider limit or a day's cap may be: far above any real mailbox provider's rate. */
export const MAX_SENDING_LIMIT = 100_000_000;
export const MAX_WARMUP_DAYS = 60;

const perHour = z.number().int().positive().max(MAX_SENDING_LIMIT);

export const providerLimitsSchema = z
  .object(perProvider(z.number().int().optional()))
  .meta({ description: 'The most mail per hour this domain sends to each mailbox provider; absent: unlimited' });

export const warmupSchema = z
  .object({
    enabled: z.boolean(),
    day: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Which day of the warm-up today is (UTC days; day 1: startedOn); null while it is off' }),
    cap: z.number().int().nullable().meta({
      description: "Today's cap on the domain's mail; null while off, and after the schedule's last day",
    }),
    sentToday: z.number().int().meta({ description: 'The mail from this domain counted against today (UTC)' }),
    schedule: z.array(z.number().int()).meta({ description: "Each day's cap, day 1 first" }),
    startedOn: z.string().meta({ description: 'Day 1 of the warm-up (YYYY-MM-DD, UTC)' }),
  })
  .meta({ id: 'DomainWarmup' });

export const domainSchema = z
  .object({
    id: z.string(),
    domain: z.string(),
    status: domainStatus,
    records: z.array(domainRecordSchema),
    createdAt: isoDate,
    updatedAt: isoDate,
    verifiedAt: isoDate.nullable(),
    lastCheckedAt: isoDate.nullable(),
    receiving: z.boolean().describe('Mail to any address at this domain is received (GET /inbound)'),
    trackingHost: z
      .string()
      .nullable()
      .describe('The custom tracking host of mail from this domain (its TRACKING record); null when none is set'),
    trackingVerified: z
      .boolean()
      .describe(
        "The tracking host's CNAME resolves to PUBLIC_URL's host: links and the open " +
          'pixel of mail from this domain use it',
      ),
    dmarcReports: z
      .boolean()
      .describe(
        'DMARC aggregate and TLS reports are asked for at this Herald (the DMARC record carries its rua; ' +
          'GET /domains/{id}/dmarc and /tls-reports read them)',
      ),
    providerLimits: providerLimitsSchema,
    warmup: warmupSchema.nullable().meta({ description: 'The warm-up: null when it was never enabled' }),
    blocklisted: z.array(z.string()).meta({
      description:
        'What the last blocklist lookups found listed ("name on zone": the domain, its tracking host or a ' +
        'sending IP); GET /domains/{id}/blocklists has every answer',
    }),
  })
  .meta({ id: 'Domain' });

export const createDomainBody = z.object({ domain: z.string().min(1).max(253) });
export const listDomainsQuery = paginationQuery.extend({ status: domainStatus.optional() });
export const updateDomainBody = z.object({
  receiving: z.boolean().optional().describe('Receive mail at this domain (a verified domain only, else 409)'),
  dmarcReports: z
    .boolean()
    .optional()
    .describe(
      'Ask for DMARC aggregate and TLS reports at this Herald: adds its rua to the DMARC record and advises the ' +
        'authorisation and _smtp._tls records; false removes them',
    ),
  trackingHost: z
    .string()
    .max(1000)
    .nullable()
    .optional()
    .describe(
      'A custom tracking host: the domain itself or a subdomain of it (422 otherwise), ' +
        'e.g. links.example.com; null removes it',
    ),
  providerLimits: z
    .strictObject(perProvider(perHour.nullable().optional()))
    .optional()
    .describe(
      'The most mail per hour to each mailbox provider (gmail, microsoft, yahoo, apple, other): a positive ' +
        'integer, or null to remove the limit; providers left out keep theirs',
    ),
  warmup: z
    .strictObject({
      enabled: z.boolean(),
      schedule: z
        .array(perHour)
        .min(1)
        .max(MAX_WARMUP_DAYS)
        .refine((caps) => caps.every((cap, i) => i === 0 || cap >= caps[i - 1]!), {
          error: 'each day may cap as much as the day before or more, never less',
        })
        .optional()
        .describe(`Each day's cap, day 1 first (1 to ${MAX_WARMUP_DAYS} days, never decreasing)`),
      startedOn: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a day, YYYY-MM-DD' })
        .optional()
        .describe('Continue a warm-up begun before: its day 1 (YYYY-MM-DD, UTC), today or earlier'),
    })
    .optional()
    .describe('Turn the warm-up on or off'),
});

/** What the API reference says about each domain route, by operationId. */
export const domainRouteDocs = {
  createDomain:
    'Generates a DKIM key and answers the DNS records to publish; a domain of this project or verified ' +
    'by another is a 409.',
  updateDomain:
    'Turns receiving mail on or off; only a verified domain can receive (409 otherwise). Receiving adds ' +
    'an optional MX record to `records`. `trackingHost` (the domain or a subdomain of it, 422 otherwise) ' +
    "adds a TRACKING CNAME record to PUBLIC_URL's host; once it is verified, links and the open pixel of " +
    'mail from this domain use it. `null` removes it. `providerLimits` caps the mail per hour to each mailbox ' +
    'provider (null removes a limit; providers left out keep theirs). `warmup: {enabled: true}` caps the mail ' +
    'per UTC day by `schedule` (default 50, 100, 200, … 100,000, then no cap), day 1 being the day it is ' +
    'enabled (or `startedOn`); enabling one already on keeps its day 1 and applies a new schedule from today; ' +
    '`{enabled: false}` turns it off and keeps its record. Marketing over the cap waits for the next day. ' +
    '`dmarcReports: true` adds `rua=mailto:dmarc-<token>@<INBOUND_MX_HOST>` to the DMARC record and advises ' +
    '`<domain>._report._dmarc.<INBOUND_MX_HOST>` (v=DMARC1) and `_smtp._tls.<domain>` (TLS reports); `false` ' +
    'removes them (the token is kept for the next time).',
  verifyDomain:
    'Looks the DNS records up now and answers the domain with its new status; verified by another ' +
    'project meanwhile is a 409.',
} as const;

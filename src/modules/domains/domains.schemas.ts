import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';

export const domainStatus = z.enum(['PENDING', 'VERIFIED', 'FAILED', 'TEMPORARY_FAILURE']);

export const domainRecordSchema = z.object({
  purpose: z.enum(['DKIM', 'SPF', 'DMARC', 'RETURN_PATH', 'INBOUND', 'TRACKING']),
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
  })
  .meta({ id: 'Domain' });

export const createDomainBody = z.object({ domain: z.string().min(1).max(253) });
export const listDomainsQuery = paginationQuery.extend({ status: domainStatus.optional() });
export const updateDomainBody = z.object({
  receiving: z.boolean().optional().describe('Receive mail at this domain (a verified domain only, else 409)'),
  trackingHost: z
    .string()
    .max(1000)
    .nullable()
    .optional()
    .describe(
      'A custom tracking host: the domain itself or a subdomain of it (422 otherwise), ' +
        'e.g. links.example.com; null removes it',
    ),
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
    'mail from this domain use it. `null` removes it.',
  verifyDomain:
    'Looks the DNS records up now and answers the domain with its new status; verified by another ' +
    'project meanwhile is a 409.',
} as const;

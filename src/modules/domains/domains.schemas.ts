import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';

export const domainStatus = z.enum(['PENDING', 'VERIFIED', 'FAILED', 'TEMPORARY_FAILURE']);

export const domainRecordSchema = z.object({
  purpose: z.enum(['DKIM', 'SPF', 'DMARC', 'RETURN_PATH']),
  type: z.enum(['TXT', 'CNAME', 'MX']),
  name: z.string(),
  value: z.string(),
  values: z.array(z.string()).optional().describe('The TXT value split into strings of at most 255 characters'),
  required: z.boolean(),
  status: z.enum(['PENDING', 'VERIFIED', 'FAILED']),
});

export const domainSchema = z.object({
  id: z.string(),
  domain: z.string(),
  status: domainStatus,
  records: z.array(domainRecordSchema),
  createdAt: isoDate,
  updatedAt: isoDate,
  verifiedAt: isoDate.nullable(),
  lastCheckedAt: isoDate.nullable(),
}).meta({ id: 'Domain' });

export const createDomainBody = z.object({ domain: z.string().min(1).max(253) });
export const listDomainsQuery = paginationQuery.extend({ status: domainStatus.optional() });

// Herald's sender domains in Resend's shape: `name` for `domain`, lower-case statuses, records as Resend lists them.
import { z } from 'zod';
import type { DomainView } from '../domains/index.ts';

const recordStatus = z.enum(['pending', 'verified', 'failed', 'temporary_failure', 'not_started']);

export const resendRecordSchema = z.object({
  record: z
    .enum(['DKIM', 'SPF', 'DMARC', 'Receiving'])
    .describe('What the record is for: the return-path CNAME is listed under SPF, as Resend lists its bounce domain'),
  name: z.string(),
  type: z.enum(['TXT', 'CNAME', 'MX']),
  value: z.string(),
  ttl: z.string(),
  status: recordStatus,
  priority: z.number().int().optional(),
});

export const resendDomainSchema = z
  .object({
    object: z.literal('domain'),
    id: z.string(),
    name: z.string(),
    status: z.enum(['pending', 'verified', 'failed', 'temporary_failure']),
    created_at: z.string(),
    capabilities: z.object({ sending: z.enum(['enabled', 'disabled']), receiving: z.enum(['enabled', 'disabled']) }),
    records: z.array(resendRecordSchema),
  })
  .meta({ id: 'ResendDomain' });

export const resendDomainItemSchema = resendDomainSchema.omit({ object: true, records: true });

type ResendRecord = z.infer<typeof resendRecordSchema>;

const RECORD_NAMES = { DKIM: 'DKIM', SPF: 'SPF', DMARC: 'DMARC', RETURN_PATH: 'SPF', INBOUND: 'Receiving' } as const;

type KindOfRecord = DomainView['records'][number] & { purpose: keyof typeof RECORD_NAMES };

/** Resend lists no custom tracking host record (Herald's own API shows it). */
const isResendKind = (record: DomainView['records'][number]): record is KindOfRecord => record.purpose in RECORD_NAMES;

/** One DNS record as Resend lists it: an MX value `10 host` becomes priority 10 and value `host`. */
function toResendRecord(record: KindOfRecord): ResendRecord {
  const mx = record.type === 'MX' ? /^(\d+)\s+(.+)$/.exec(record.value) : null;
  return {
    record: RECORD_NAMES[record.purpose],
    name: record.name,
    type: record.type,
    value: mx ? mx[2]! : record.value,
    ttl: 'Auto',
    status: record.status === 'PENDING' ? 'pending' : record.status === 'VERIFIED' ? 'verified' : 'failed',
    ...(mx ? { priority: Number(mx[1]) } : {}),
  };
}

/** A Herald domain as Resend answers it. */
export function toResendDomain(domain: DomainView): z.infer<typeof resendDomainSchema> {
  return {
    object: 'domain',
    id: domain.id,
    name: domain.domain,
    status:
      domain.status === 'TEMPORARY_FAILURE'
        ? 'temporary_failure'
        : domain.status === 'VERIFIED'
          ? 'verified'
          : domain.status === 'FAILED'
            ? 'failed'
            : 'pending',
    created_at: domain.createdAt,
    capabilities: { sending: 'enabled', receiving: domain.receiving ? 'enabled' : 'disabled' },
    records: domain.records.filter(isResendKind).map(toResendRecord),
  };
}

/** A domain as Resend's list shows it (no records). */
export function toResendDomainItem(domain: DomainView): z.infer<typeof resendDomainItemSchema> {
  const { object: _object, records: _records, ...item } = toResendDomain(domain);
  return item;
}

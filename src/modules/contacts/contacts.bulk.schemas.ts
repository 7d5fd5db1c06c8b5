// The bodies and answers of POST /contacts/bulk and GET /contacts/bulk/{id}. Kept apart from contacts.schemas.ts:
// they name the segments filter, and the segments module itself imports the contacts front door.
import { z } from 'zod';
import { BULK_ACTIONS } from '../../db/schema/index.ts';
import { isoDate } from '../../lib/http.ts';
import { filterSchema } from '../segments/index.ts';
import { dataSchema } from './contacts.schemas.ts';

/** Most contact ids one bulk action names; a larger set is chosen with a filter. */
export const BULK_MAX_IDS = 10_000;

export const bulkBody = z.object({
  action: z.enum(BULK_ACTIONS),
  contactIds: z
    .array(z.string().max(64))
    .min(1)
    .max(BULK_MAX_IDS)
    .optional()
    .meta({ description: `The contacts to act on (1–${BULK_MAX_IDS.toLocaleString('en')} ids); give this or filter` }),
  filter: filterSchema
    .optional()
    .meta({ description: 'The contacts matching this segments filter when the job starts; give this or contactIds' }),
  segmentId: z
    .string()
    .max(64)
    .optional()
    .meta({ description: 'The list (STATIC segment) for addToSegment and removeFromSegment' }),
  data: dataSchema.optional().meta({
    description:
      'For setData: merged key by key into each contact, as PATCH /contacts/{id} does; a null value deletes the key',
  }),
});

export type BulkBody = z.infer<typeof bulkBody>;

export const bulkCreatedSchema = z.object({ id: z.string() });

export const contactBulkSchema = z
  .object({
    id: z.string(),
    action: z.enum(BULK_ACTIONS),
    status: z.enum(['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED']),
    total: z
      .number()
      .int()
      .meta({ description: 'Contacts the action works through (for a filter: counted when the job starts, 0 before)' }),
    processed: z.number().int().meta({ description: 'Contacts done so far, the failed ones included' }),
    failed: z
      .number()
      .int()
      .meta({
        description:
          'Contacts that could not be changed: the id names no contact (any more), or the ' +
          'merged data would exceed 64 KB',
      }),
    failure: z.string().nullable().meta({ description: 'Why a FAILED action stopped' }),
    createdAt: isoDate,
    updatedAt: isoDate,
    finishedAt: isoDate.nullable(),
  })
  .meta({ id: 'ContactBulkAction' });

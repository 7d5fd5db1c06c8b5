import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';

/** A filter of CONTRACT §9; its rules are checked by the service (422 naming the offending path). */
export const filterSchema = z.record(z.string(), z.unknown()).meta({
  id: 'Filter',
  description: 'A JSON tree: {"all": [Filter…]} | {"any": [Filter…]} | {"not": Filter} | a condition. Conditions: '
    + '{"field": "email"|"subscribed"|"createdAt"|"updatedAt"|"data.<path>", "operator", "value"?}; '
    + '{"event": "<name>", "operator": "performed"|"notPerformed", "within"?: "7d", "count"?: {"gte"?, "lte"?}}; '
    + '{"activity": "sent"|"delivered"|"opened"|"clicked"|"bounced"|"complained", "operator": "performed"|"notPerformed", "within"?, "campaignId"?}; '
    + '{"segment": "<segmentId>", "operator": "member"|"notMember"}. Durations: "30m", "12h", "7d", "4w".',
});

export const segmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  filter: filterSchema,
  memberCount: z.number().int().meta({ description: 'Contacts matching the filter now' }),
  createdAt: isoDate,
  updatedAt: isoDate,
}).meta({ id: 'Segment' });

export const createSegmentBody = z.object({
  name: nameSchema(),
  description: z.string().max(2000).nullable().optional(),
  filter: filterSchema,
});

export const updateSegmentBody = createSegmentBody.partial();

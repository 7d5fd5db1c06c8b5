import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';

/** A segment filter; its rules are checked by the service (422 naming the offending path). */
export const filterSchema = z.record(z.string(), z.unknown()).meta({
  id: 'Filter',
  description:
    'A JSON tree: {"all": [Filter…]} | {"any": [Filter…]} | {"not": Filter} | a condition. Conditions: ' +
    '{"field": "email"|"subscribed"|"createdAt"|"updatedAt"|"data.<path>", "operator", "value"?}; ' +
    '{"event": "<name>", "operator": "performed"|"notPerformed", "within"?: "7d", "count"?: {"gte"?, "lte"?}}; ' +
    '{"activity": "sent"|"delivered"|"opened"|"clicked"|"bounced"|"complained", ' +
    '"operator": "performed"|"notPerformed", "within"?, "campaignId"?, "human"?: true ' +
    '(opens and clicks by people only)}; ' +
    '{"segment": "<segmentId>", "operator": "member"|"notMember"}. {"topic": ' +
    '"<topicId>", "operator": "subscribed"|"notSubscribed"}. Durations: "30m", "12h", ' +
    '"7d", "4w".',
});

export const segmentSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.enum(['DYNAMIC', 'STATIC']).meta({
      description:
        'DYNAMIC: the contacts matching `filter` now. STATIC: a list whose members are ' +
        'added and removed by id or email',
    }),
    filter: filterSchema.nullable().meta({ description: 'The filter of a DYNAMIC segment; null for a STATIC one' }),
    memberCount: z.number().int().meta({ description: 'Members now' }),
    trackMembership: z
      .boolean()
      .meta({ description: 'Entries and exits are recorded as segment.entered / segment.exited events' }),
    enteredLast24h: z
      .number()
      .int()
      .optional()
      .meta({ description: 'When tracked: segment.entered events of the last 24 hours' }),
    exitedLast24h: z
      .number()
      .int()
      .optional()
      .meta({ description: 'When tracked: segment.exited events of the last 24 hours' }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Segment' });

export const createSegmentBody = z.object({
  name: nameSchema(),
  description: z.string().max(2000).nullable().optional(),
  type: z
    .enum(['DYNAMIC', 'STATIC'])
    .optional()
    .meta({ description: 'Default DYNAMIC, which requires a filter; a STATIC segment takes none' }),
  filter: filterSchema.optional(),
  trackMembership: z
    .boolean()
    .optional()
    .meta({ description: 'Record segment.entered / segment.exited events (default false)' }),
});

export const updateSegmentBody = createSegmentBody.omit({ type: true }).partial();

/** The most members one call adds or removes. */
export const MEMBERS_PER_CALL = 1000;

export const membersBody = z
  .object({
    emails: z.array(z.string().max(320)).max(MEMBERS_PER_CALL).optional(),
    contactIds: z.array(z.string().max(64)).max(MEMBERS_PER_CALL).optional(),
    createMissing: z
      .boolean()
      .optional()
      .meta({ description: 'Adding only: create contacts for addresses that have none (subscribed: true)' }),
  })
  .meta({ description: `At most ${MEMBERS_PER_CALL} emails and contact ids in all` });

export const membersAdded = z.object({
  added: z.number().int(),
  alreadyMembers: z.number().int(),
  missing: z.array(z.string()).meta({ description: 'Emails and contact ids that name no contact of the project' }),
});

export const membersRemoved = z.object({ removed: z.number().int() });

/** What the API reference says about each segment route, by operationId. */
export const segmentRouteDocs = {
  createSegment:
    'A DYNAMIC segment (the default) needs a filter, checked when saved: a 422 names each offending ' +
    'path. A STATIC segment (a list) takes none; its members are added and removed through ' +
    '/segments/{id}/members.',
  updateSegment:
    'Changes a segment; a new filter is checked like on create. 409 when trackMembership is turned off ' +
    "while workflows start on the segment's entries or exits.",
  deleteSegment:
    'Deletes a segment; 409 while another segment, a draft, scheduled or sending campaign, or a ' +
    "workflow's CONDITION step uses it.",
  addSegmentMembers:
    'Adds contacts, by email or id (at most 1,000 in all), to a STATIC segment; 409 for a DYNAMIC one. ' +
    'Names that match no contact come back in `missing`, unless `createMissing` creates them.',
  removeSegmentMembers:
    'Removes contacts, by email or id (at most 1,000 in all), from a STATIC segment; 409 for a DYNAMIC one.',
} as const;

/** GET /segments/count: a filter given as JSON in the query string (it only reads, so a read key may ask). */
export const countFilterQuery = z.object({
  filter: z
    .string()
    .max(20_000)
    .transform((text, check) => {
      try {
        const value: unknown = JSON.parse(text);
        if (typeof value === 'object' && value !== null && !Array.isArray(value))
          return value as Record<string, unknown>;
      } catch {
        // reported below
      }
      check.addIssue({ code: 'custom', message: 'must be a filter as a JSON object' });
      return z.NEVER;
    })
    .meta({ description: 'A filter of the segment language as JSON, such as {"all":[]}' }),
});

export const filterCountSchema = z
  .object({ count: z.number().int().meta({ description: 'The contacts matching the filter now' }) })
  .meta({ id: 'FilterCount' });

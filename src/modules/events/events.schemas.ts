import { z } from 'zod';
import { normalizeEmail } from '../../lib/email-address.ts';
import { isoDate } from '../../lib/http.ts';
import { isId } from '../../lib/ids.ts';
import { paginationQuery } from '../../lib/pagination.ts';

export const eventSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contactId: z.string(),
    data: z.record(z.string(), z.unknown()),
    createdAt: isoDate,
  })
  .meta({ id: 'Event' });

export const eventNameSchema = z
  .object({
    name: z.string(),
    count: z.number().int(),
    lastSeenAt: isoDate,
  })
  .meta({ id: 'EventName' });

export const listEventsQuery = paginationQuery.extend({
  name: z.string().min(1).max(200).optional().meta({ description: 'Exact event name' }),
  contactId: z.string().refine(isId, { error: 'must be a contact id' }).optional(),
  email: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .transform(normalizeEmail)
    .optional()
    .meta({ description: 'Events of the contact with this email (an internationalised domain in either form)' }),
});

/** What the API reference says about each event route, by operationId. */
export const eventRouteDocs = {
  listEventNames: 'Every event name of the project with its count and the time it was last seen, ordered by name.',
} as const;

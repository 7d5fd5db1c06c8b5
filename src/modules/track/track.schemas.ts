import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { emailAddressSchema as emailSchema } from '../../lib/email-address.ts';
import { contactLocaleField, dataSchema } from '../contacts/index.ts';

/** Names of the events the service records itself; a client may not forge them. */
const RESERVED_EVENT_NAME = /^(email|contact|segment)\./i;

export const trackBody = z.object({
  email: emailSchema,
  event: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^\p{Cc}]+$/u, { error: 'must not contain control characters' })
    .refine((name) => !RESERVED_EVENT_NAME.test(name), {
      error: 'names starting with "email.", "contact." or "segment." are reserved for events the service records',
    }),
  subscribed: z.boolean().optional().meta({
    description:
      'Subscription of the contact: new contacts default to true; with a public key it applies to new contacts only',
  }),
  data: dataSchema.nullable().optional().meta({
    description: 'Event data, also merged into the contact; a value {value, persistent: false} goes on the event only',
  }),
  locale: contactLocaleField,
});

export const trackResult = z.object({
  contact: z.string().meta({ description: 'Contact id' }),
  event: z.string().meta({ description: 'Event id' }),
  timestamp: isoDate,
});

/** What the API reference says about each track route, by operationId. */
export const trackRouteDocs = {
  trackEvent: 'Records an event for a contact, creating or updating the contact. Public (pk_) or secret key.',
} as const;

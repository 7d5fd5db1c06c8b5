import { z } from 'zod';
import { localeSchema } from '../../lib/locale.ts';
import { dataSchema, emailSchema } from '../contacts/index.ts';

export const subscribeBody = z.object({
  email: emailSchema,
  data: dataSchema
    .optional()
    .meta({ description: "Merged into a new contact's data (a secret key also updates an existing contact)" }),
  topics: z.array(z.string().max(64)).max(50).optional().meta({ description: 'Topic ids the person chose in to' }),
  locale: localeSchema.optional().meta({
    description:
      'The language the person reads, a BCP 47 tag such as pt-BR. Without it, the best language of the ' +
      "request's Accept-Language header is taken for a new contact (or, with a secret key, one without a language)",
  }),
});

export const subscribeResult = z.object({
  contact: z.string().meta({ description: 'The contact id' }),
  email: z.string(),
  status: z
    .enum(['SUBSCRIBED', 'PENDING'])
    .meta({ description: 'PENDING: a confirmation email is on its way (or was sent in the last 10 minutes)' }),
  confirmation: z.object({ status: z.enum(['PENDING', 'CONFIRMED']), sentAt: z.string().nullable() }).nullable(),
});

/**
 * The answer to a public key: accepted, and nothing about the address, so a signup form cannot tell who is on the list.
 */
export const subscribeAccepted = z
  .null()
  .meta({ description: 'Always null: the same answer for a new, pending or already subscribed address' });

export { confirmationSchema } from '../contacts/index.ts';

/** What the API reference says about each subscribe route, by operationId. */
export const subscribeRouteDocs = {
  subscribe:
    'For signup forms (public key, CORS) and backends (secret key). Creates or updates the contact; ' +
    'unless it is already subscribed it stays `subscribed: false`, PENDING, and gets the confirmation ' +
    "email of the project's doubleOptIn setting (at most one per 10 minutes). A public key never changes " +
    'an existing contact, and gets 409 when double opt-in is not set up; a secret key then subscribes at ' +
    'once. A public key always gets 202 with `data: null`, whether the address was new, pending or ' +
    'already subscribed, so a form tells nobody who is on the list; a secret key gets 200 with the ' +
    'contact and its confirmation.',
  getContactConfirmation:
    'Double opt-in: NONE when the contact never signed up through POST /v1/subscribe with a confirmation ' +
    'email, PENDING once one was sent, CONFIRMED after its link was confirmed.',
  confirmPage: 'The page behind {{confirmUrl}}: a Confirm button. A GET never confirms (link scanners follow links).',
  confirmSubscription:
    'The Confirm button: subscribed, confirmation CONFIRMED, events contact.confirmed and ' +
    'contact.subscribed. Repeating it changes nothing. Any body is ignored. 403 when posted from another ' +
    'site.',
} as const;

import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { dataSchema, emailSchema } from '../contacts/index.ts';

export const subscribeBody = z.object({
  email: emailSchema,
  data: dataSchema.optional().meta({ description: 'Merged into a new contact\'s data (a secret key also updates an existing contact)' }),
  topics: z.array(z.string().max(64)).max(50).optional().meta({ description: 'Topic ids the person chose in to' }),
});

export const subscribeResult = z.object({
  contact: z.string().meta({ description: 'The contact id' }),
  email: z.string(),
  status: z.enum(['SUBSCRIBED', 'PENDING']).meta({ description: 'PENDING: a confirmation email is on its way (or was sent in the last 10 minutes)' }),
  confirmation: z.object({ status: z.enum(['PENDING', 'CONFIRMED']), sentAt: z.string().nullable() }).nullable(),
});

/** The answer to a public key: accepted, and nothing about the address, so a signup form cannot tell who is on the list. */
export const subscribeAccepted = z.null().meta({ description: 'Always null: the same answer for a new, pending or already subscribed address' });

export const confirmationSchema = z.object({
  status: z.enum(['NONE', 'PENDING', 'CONFIRMED']).meta({ description: 'NONE: the contact never signed up with double opt-in. PENDING: the confirmation email was sent and not yet confirmed' }),
  sentAt: isoDate.nullable().meta({ description: 'When the last confirmation email was sent' }),
  confirmedAt: isoDate.nullable(),
}).meta({ id: 'ContactConfirmation' });

// Herald's contacts in Resend's shape: `first_name`/`last_name` are `data.firstName`/`data.lastName`, the rest of
// `data` is `properties`, and `unsubscribed` is `!subscribed`.
import { z } from 'zod';
import type { JsonObject } from '../../db/schema/index.ts';
import { dataSchema, emailSchema, type ContactView } from '../contacts/index.ts';

const name = z.string().max(200).nullable().optional();

export const resendContactBody = z.object({
  email: emailSchema,
  first_name: name,
  last_name: name,
  unsubscribed: z.boolean().optional(),
  properties: dataSchema.optional().describe("Stored in the contact's `data`, key by key"),
  segments: z
    .array(z.object({ id: z.string().max(100) }))
    .max(100)
    .optional()
    .describe('Lists to add the contact to'),
  topics: z
    .array(z.object({ id: z.string().max(100), subscription: z.enum(['opt_in', 'opt_out']) }))
    .max(100)
    .optional()
    .describe("The contact's topic choices"),
});

export const resendContactPatch = resendContactBody
  .omit({ email: true, segments: true, topics: true })
  .partial()
  .optional();

export const resendContactSchema = z
  .object({
    object: z.literal('contact'),
    id: z.string(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    created_at: z.string(),
    unsubscribed: z.boolean(),
    properties: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'ResendContact' });

/** The `data` patch of a Resend body: names as firstName/lastName (null deletes), properties beside them. */
export function dataPatchOf(body: {
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  properties?: Record<string, unknown> | undefined;
}): JsonObject | undefined {
  const patch: Record<string, unknown> = { ...body.properties };
  if (body.first_name !== undefined) patch.firstName = body.first_name;
  if (body.last_name !== undefined) patch.lastName = body.last_name;
  return Object.keys(patch).length > 0 ? (patch as JsonObject) : undefined;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A Herald contact as Resend answers it. */
export function toResendContact(contact: ContactView): z.infer<typeof resendContactSchema> {
  const { firstName, lastName, ...properties } = contact.data;
  return {
    object: 'contact',
    id: contact.id,
    email: contact.email,
    first_name: text(firstName),
    last_name: text(lastName),
    created_at: contact.createdAt,
    unsubscribed: !contact.subscribed,
    properties,
  };
}

// Resend's contact properties on Herald's declared contact data keys: a type, and a fallback rendered where a contact
// has no value.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { validationError } from '../../lib/errors.ts';
import { idParams } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import {
  type ContactPropertyView,
  createContactProperty,
  deleteContactProperty,
  findPropertyTypes,
  getContactProperty,
  listContactProperties,
  updateContactProperty,
} from '../contacts/index.ts';
import { resendErrors } from './resend.errors.ts';
import { listItem, resendList, resendListOf, resendListQuery } from './resend.pagination.ts';
import { RESEND_READ, RESEND_TAG, RESEND_WRITE } from './resend.tag.ts';

const fallbackValue = z.union([z.string().max(2000), z.number()]).nullable();

const resendPropertySchema = z
  .object({
    object: z.literal('contact_property'),
    id: z.string(),
    key: z.string(),
    type: z.enum(['string', 'number']),
    fallback_value: fallbackValue,
    created_at: z.string(),
  })
  .meta({ id: 'ResendContactProperty' });

const propertyRef = z.object({ object: z.literal('contact_property'), id: z.string() });

const createBody = z.object({
  key: z.string().min(1).max(50).describe("A key of contacts' `properties` (letters, digits and _)"),
  type: z.enum(['string', 'number']),
  fallback_value: fallbackValue.optional().describe("Rendered where a contact has no value; of the property's type"),
});

const updateBody = z.object({ fallback_value: fallbackValue.optional() }).optional();

/** A declared key as Resend answers it. */
function toResendProperty(property: ContactPropertyView): z.infer<typeof resendPropertySchema> {
  return {
    object: 'contact_property',
    id: property.id,
    key: property.key,
    type: property.type,
    fallback_value: property.fallback,
    created_at: property.createdAt,
  };
}

/** Contact properties whose value is not of the declared type are a 422 naming the property. */
export async function checkPropertyTypes(opts: {
  db: Executor;
  projectId: string;
  properties: Record<string, unknown> | undefined;
}): Promise<void> {
  const given = Object.entries(opts.properties ?? {}).filter(([, value]) => value !== null);
  if (given.length === 0) return;
  const types = await findPropertyTypes(opts);
  for (const [key, value] of given) {
    const type = types.get(key);
    if (type && typeof value !== type)
      throw validationError(`properties.${key}`, `properties.${key}: must be a ${type}`, 'invalid_type');
  }
}

/** Resend's contact property routes. */
export function resendContactPropertyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = [RESEND_TAG];

    app.post(
      '/contact-properties',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Create a contact property (Resend)',
          operationId: 'resendCreateContactProperty',
          description: "Declares a key of contacts' data; a key the project has already is a 409.",
          body: createBody,
          response: { 200: propertyRef, ...resendErrors },
        },
      },
      async (request) => {
        const { key, type, fallback_value } = request.body;
        const property = await createContactProperty({
          db: ctx.db,
          projectId: projectOf(request),
          input: { key, type, fallback: fallback_value },
        });
        return { object: 'contact_property' as const, id: property.id };
      },
    );

    app.get(
      '/contact-properties',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'List contact properties (Resend)',
          operationId: 'resendListContactProperties',
          querystring: resendListQuery,
          response: { 200: resendList(resendPropertySchema.omit({ object: true })), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        return resendListOf(
          request.query,
          (id) => getContactProperty({ db: ctx.db, projectId, id }),
          (cursor) => listContactProperties({ db: ctx.db, projectId, limit: request.query.limit, cursor }),
          (property) => listItem(toResendProperty(property)),
        );
      },
    );

    app.get(
      '/contact-properties/:id',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'Retrieve a contact property (Resend)',
          operationId: 'resendGetContactProperty',
          params: idParams,
          response: { 200: resendPropertySchema, ...resendErrors },
        },
      },
      async (request) =>
        toResendProperty(
          await getContactProperty({ db: ctx.db, projectId: projectOf(request), id: request.params.id }),
        ),
    );

    app.patch(
      '/contact-properties/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Update a contact property (Resend)',
          operationId: 'resendUpdateContactProperty',
          description: 'Its fallback; the key and type are fixed once declared.',
          params: idParams,
          body: updateBody,
          response: { 200: propertyRef, ...resendErrors },
        },
      },
      async (request) => {
        const property = await updateContactProperty({
          db: ctx.db,
          projectId: projectOf(request),
          id: request.params.id,
          fallback: request.body?.fallback_value ?? null,
        });
        return { object: 'contact_property' as const, id: property.id };
      },
    );

    app.delete(
      '/contact-properties/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Delete a contact property (Resend)',
          operationId: 'resendDeleteContactProperty',
          description: 'The declaration goes; contacts keep their values of the key.',
          params: idParams,
          response: { 200: propertyRef.extend({ deleted: z.boolean() }), ...resendErrors },
        },
      },
      async (request) => {
        const deleted = await deleteContactProperty({
          db: ctx.db,
          projectId: projectOf(request),
          id: request.params.id,
        });
        return { object: 'contact_property' as const, id: deleted.id, deleted: true };
      },
    );
  };
}

import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { bulkBody, bulkCreatedSchema, contactBulkSchema } from './contacts.bulk.schemas.ts';
import * as bulk from './contacts.bulk.service.ts';
import * as imports from './contacts.import.service.ts';
import { readCsvUpload, throwIfRefused } from './contacts.import.upload.ts';
import {
  contactImportSchema,
  contactRouteDocs,
  consentEntrySchema,
  contactDetailSchema,
  engagementCountsSchema,
  importBody,
  listContactsQuery,
  updateContactBody,
  upsertContactBody,
  upsertedContactSchema,
} from './contacts.schemas.ts';
import * as service from './contacts.service.ts';
import { getContactConsent, requestSource } from './contacts.consent.ts';
import { countEngagementLevels } from './contacts.engagement.service.ts';

/**
 * JSON imports are parsed on arrival: 100,000 rows of `{email, data}` fit in 8 MB (CSV uploads stream, up to 32 MB).
 */
const JSON_IMPORT_BODY_LIMIT = 8 * 1024 * 1024;

/** /contacts: the project's audience (secret key), bulk imports and bulk actions included. */
export function contactRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Contacts'];

    // CSV uploads are read as a stream, their size and rows checked as they arrive; only this plugin's routes take
    // them.
    app.addContentTypeParser(['text/csv', 'application/csv'], (_request: FastifyRequest, payload: IncomingMessage) =>
      readCsvUpload(payload),
    );

    app.get(
      '/contacts',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List contacts',
          operationId: 'listContacts',
          querystring: listContactsQuery,
          response: { 200: listEnvelope(contactDetailSchema), ...errors() },
        },
      },
      async (request) =>
        ok(await service.listContacts({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.post(
      '/contacts',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Create or update a contact',
          operationId: 'upsertContact',
          description: contactRouteDocs.upsertContact,
          body: upsertContactBody,
          response: {
            200: envelope(upsertedContactSchema).meta({ description: 'The contact existed and was updated' }),
            201: envelope(upsertedContactSchema).meta({ description: 'The contact was created' }),
            ...errors(),
          },
        },
      },
      async (request, reply) => {
        const { contact, isNew } = await service.upsertContact({
          db: ctx.db,
          projectId: projectOf(request),
          ...request.body,
          consent: requestSource(),
        });
        reply.code(isNew ? 201 : 200);
        return ok({ ...contact, _meta: { isNew, isUpdate: !isNew } });
      },
    );

    app.get(
      '/contacts/engagement',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Count contacts by engagement level',
          operationId: 'countContactEngagement',
          description: contactRouteDocs.countContactEngagement,
          response: { 200: envelope(engagementCountsSchema), ...errors() },
        },
      },
      async (request) => ok(await countEngagementLevels({ db: ctx.db, projectId: projectOf(request) })),
    );

    app.get(
      '/contacts/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a contact',
          operationId: 'getContact',
          params: idParams,
          response: { 200: envelope(contactDetailSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.getContact({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/contacts/:id/consent',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: "A contact's consent ledger",
          operationId: 'getContactConsent',
          params: idParams,
          description: contactRouteDocs.getContactConsent,
          response: { 200: envelope(z.array(consentEntrySchema)), ...errors(404) },
        },
      },
      async (request) =>
        ok(await getContactConsent({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/contacts/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Update a contact',
          operationId: 'updateContact',
          description: contactRouteDocs.updateContact,
          params: idParams,
          body: updateContactBody,
          response: { 200: envelope(contactDetailSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await service.updateContact({
            db: ctx.db,
            projectId: projectOf(request),
            id: request.params.id,
            ...request.body,
            audited: true,
            // A signed-in person changes it from the dashboard; a key through the API.
            consent: requestSource(),
          }),
        ),
    );

    app.delete(
      '/contacts/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Delete a contact',
          operationId: 'deleteContact',
          description: contactRouteDocs.deleteContact,
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404) },
        },
      },
      async (request) => ok(await service.deleteContact({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/contacts/import',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        bodyLimit: JSON_IMPORT_BODY_LIMIT,
        preValidation: async (request) => throwIfRefused(request.body),
        schema: {
          tags,
          summary: 'Import contacts',
          operationId: 'importContacts',
          description: contactRouteDocs.importContacts,
          consumes: ['text/csv', 'application/json'],
          body: importBody,
          response: {
            202: envelope(contactImportSchema).meta({ description: 'The import is queued; poll it' }),
            ...errors(),
          },
        },
      },
      async (request, reply) => {
        reply.code(202);
        return ok(
          await imports.createImport({
            db: ctx.db,
            queue: ctx.queue,
            projectId: projectOf(request),
            body: request.body,
          }),
        );
      },
    );

    app.post(
      '/contacts/bulk',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Run a bulk action on contacts',
          operationId: 'createContactBulkAction',
          description: contactRouteDocs.createContactBulkAction,
          body: bulkBody,
          response: {
            202: envelope(bulkCreatedSchema).meta({ description: 'The action is queued; poll it' }),
            ...errors(404, 409),
          },
        },
      },
      async (request, reply) => {
        reply.code(202);
        return ok(
          await bulk.createBulk({ db: ctx.db, queue: ctx.queue, projectId: projectOf(request), input: request.body }),
        );
      },
    );

    app.get(
      '/contacts/bulk/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a bulk action',
          operationId: 'getContactBulkAction',
          params: idParams,
          response: { 200: envelope(contactBulkSchema), ...errors(404) },
        },
      },
      async (request) => ok(await bulk.getBulk({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/contacts/import/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get an import',
          operationId: 'getContactImport',
          params: idParams,
          response: { 200: envelope(contactImportSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await imports.getImport({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );
  };
}

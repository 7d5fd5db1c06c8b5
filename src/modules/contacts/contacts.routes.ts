import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import * as imports from './contacts.import.service.ts';
import {
  contactImportSchema, contactSchema, importBody, listContactsQuery, updateContactBody, upsertContactBody, upsertedContactSchema,
} from './contacts.schemas.ts';
import * as service from './contacts.service.ts';

/** Uploads of up to 100,000 rows: well above what such a file takes, well below memory trouble. */
const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

/** /contacts: the project's audience (secret key), bulk import included. */
export function contactRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Contacts'];

    // CSV uploads arrive as the raw text; only this plugin's routes accept them.
    app.addContentTypeParser(['text/csv', 'application/csv'], { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT }, (_request, body, done) => {
      done(null, body);
    });

    app.get('/contacts', {
      config,
      schema: { tags, summary: 'List contacts', operationId: 'listContacts', querystring: listContactsQuery, response: { 200: listEnvelope(contactSchema), ...errors() } },
    }, async (request) => ok(await service.listContacts({ db: ctx.db, projectId: projectOf(request), ...request.query })));

    app.post('/contacts', {
      config,
      schema: {
        tags,
        summary: 'Create or update a contact',
        operationId: 'upsertContact',
        description: 'Creates the contact (201) or updates the one with this email (200): only the fields given change.',
        body: upsertContactBody,
        response: { 200: envelope(upsertedContactSchema).meta({ description: 'The contact existed and was updated' }), 201: envelope(upsertedContactSchema).meta({ description: 'The contact was created' }), ...errors() },
      },
    }, async (request, reply) => {
      const { contact, isNew } = await service.upsertContact({ db: ctx.db, projectId: projectOf(request), ...request.body });
      reply.code(isNew ? 201 : 200);
      return ok({ ...contact, _meta: { isNew, isUpdate: !isNew } });
    });

    app.get('/contacts/:id', {
      config,
      schema: { tags, summary: 'Get a contact', operationId: 'getContact', params: idParams, response: { 200: envelope(contactSchema), ...errors(404) } },
    }, async (request) => ok(await service.getContact({ db: ctx.db, projectId: projectOf(request), id: request.params.id })));

    app.patch('/contacts/:id', {
      config,
      schema: { tags, summary: 'Update a contact', operationId: 'updateContact', description: 'Changes email, subscribed and data (merged key by key); another contact with the email is a 409.', params: idParams, body: updateContactBody, response: { 200: envelope(contactSchema), ...errors(404, 409) } },
    }, async (request) => ok(await service.updateContact({ db: ctx.db, projectId: projectOf(request), id: request.params.id, ...request.body })));

    app.delete('/contacts/:id', {
      config,
      schema: { tags, summary: 'Delete a contact', operationId: 'deleteContact', description: 'Deletes the contact and its events.', params: idParams, response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404) } },
    }, async (request) => ok(await service.deleteContact({ db: ctx.db, projectId: projectOf(request), id: request.params.id })));

    app.post('/contacts/import', {
      config,
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Import contacts',
        operationId: 'importContacts',
        description: 'Queues a bulk import of up to 100,000 rows: text/csv with a header row, or a JSON array. Poll GET /contacts/import/{id}.',
        consumes: ['text/csv', 'application/json'],
        body: importBody,
        response: { 202: envelope(contactImportSchema).meta({ description: 'The import is queued; poll it' }), ...errors() },
      },
    }, async (request, reply) => {
      reply.code(202);
      return ok(await imports.createImport({ db: ctx.db, queue: ctx.queue, projectId: projectOf(request), body: request.body }));
    });

    app.get('/contacts/import/:id', {
      config,
      schema: { tags, summary: 'Get an import', operationId: 'getContactImport', params: idParams, response: { 200: envelope(contactImportSchema), ...errors(404) } },
    }, async (request) => ok(await imports.getImport({ db: ctx.db, projectId: projectOf(request), id: request.params.id })));
  };
}

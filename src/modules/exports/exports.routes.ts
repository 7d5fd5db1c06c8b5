import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { consentEntrySchema, contactSchema } from '../contacts/index.ts';
import { exportContact, exportContactsCsv } from './exports.service.ts';

/** What the API reference says about each export route, by operationId. */
const exportRouteDocs = {
  exportContacts:
    'Streams every matching contact (id, email, subscribed, createdAt, updatedAt and the data) as CSV, ' +
    'in constant memory, ordered by id. Contacts added while it runs may or may not be included; none ' +
    'appears twice.',
  exportContact:
    "A data-subject access request: the contact, its events, its emails' metadata and its topic choices, " +
    'as JSON (streamed, whatever their number).',
} as const;

const exportQuery = z.object({
  format: z.literal('csv').default('csv').meta({ description: 'csv (the only format)' }),
  segmentId: z.string().max(64).optional().meta({ description: 'Only the members of this segment' }),
  data: z
    .enum(['columns', 'json'])
    .default('columns')
    .meta({ description: 'columns: one column per top-level data key; json: one `data` column of JSON' }),
});

const subjectExport = z.object({
  contact: contactSchema,
  events: z.array(z.any().meta({ type: 'object', description: 'An event, as GET /events answers it' })),
  emails: z
    .array(z.any().meta({ type: 'object', description: 'An email record, as GET /emails answers it' }))
    .meta({ description: 'Metadata of every email to the contact (no bodies)' }),
  topics: z.array(z.object({ topicId: z.string(), name: z.string(), subscribed: z.boolean() })),
  consent: z.array(consentEntrySchema).meta({ description: 'The consent ledger, oldest first' }),
  exportedAt: z.string(),
});

/** Exports of contacts: a streamed CSV of any size, and one person's data as JSON. */
export function exportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Contacts'];

    app.get(
      '/contacts/export',
      {
        config: { ...config, scope: 'read', role: 'editor' },
        schema: {
          tags,
          summary: 'Export contacts as CSV',
          operationId: 'exportContacts',
          querystring: exportQuery,
          description: exportRouteDocs.exportContacts,
          response: {
            200: {
              description: 'CSV (text/csv)',
              content: {
                'text/csv': {
                  schema: z.any().meta({ type: 'string', description: 'RFC 4180 CSV with a header line' }),
                },
              },
            },
            ...errors(404),
          },
        },
      },
      async (request, reply) => {
        const rows = await exportContactsCsv({
          db: ctx.db,
          projectId: projectOf(request),
          segmentId: request.query.segmentId,
          data: request.query.data,
        });
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', 'attachment; filename="contacts.csv"')
          .send(Readable.from(rows));
      },
    );

    app.get(
      '/contacts/:id/export',
      {
        config: { ...config, scope: 'read', role: 'editor' },
        schema: {
          tags,
          summary: "Export one contact's data",
          operationId: 'exportContact',
          description: exportRouteDocs.exportContact,
          params: idParams,
          response: { 200: envelope(subjectExport), ...errors(404) },
        },
      },
      async (request, reply) => {
        const projectId = projectOf(request);
        const json = await exportContact({ db: ctx.db, projectId, id: request.params.id, audited: true });
        // A stream is sent as written: the schema above documents it, the service writes that shape.
        return reply.type('application/json; charset=utf-8').send(Readable.from(json) as never);
      },
    );
  };
}

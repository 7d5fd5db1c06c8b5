import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { idParams } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { listEmailAttachments, type EmailAttachmentMeta } from '../emails/index.ts';
import { getInbound, listInbound } from '../inbound/index.ts';
import { downloadLink } from './resend.downloads.ts';
import { notFoundError, resendErrors, resendErrorSchema } from './resend.errors.ts';
import { cursorOf, pageOfList, resendList, resendListQuery, toResendList } from './resend.pagination.ts';
import {
  resendAttachmentSchema,
  resendReceivedItemSchema,
  resendReceivedSchema,
  toResendReceived,
  toResendReceivedItem,
} from './resend.receiving.map.ts';
import { RESEND_TAG } from './resend.tag.ts';

const attachmentParams = z.object({ id: z.string(), attachmentId: z.string() });
const getQuery = z.object({
  html_format: z
    .enum(['data_uri', 'cid'])
    .optional()
    .describe('Accepted; `html` is always as received, with `cid:` references to the attachments'),
});

type Attachment = z.infer<typeof resendAttachmentSchema>;

/**
 * Resend's received emails on Herald's inbound mail, and the attachments of sent and received emails, each with a
 * signed `download_url` valid for an hour.
 */
export function resendReceivingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret', scope: 'read', role: 'viewer' } as const;
    const tags = [RESEND_TAG];

    /** A received message's attachments in Resend's shape, each with its link. */
    async function inboundAttachments(projectId: string, id: string): Promise<Attachment[]> {
      const message = await getInbound({ db: ctx.db, projectId, id });
      return message.attachments.map((a) => ({
        object: 'attachment' as const,
        id: a.id,
        ...(a.filename !== null ? { filename: a.filename } : {}),
        size: a.size,
        content_type: a.contentType,
        content_disposition: a.contentId ? ('inline' as const) : ('attachment' as const),
        ...(a.contentId ? { content_id: a.contentId } : {}),
        ...downloadLink(ctx, { projectId, kind: 'inbound-attachment', recordId: id, fileId: a.id }),
      }));
    }

    /** A sent email's attachments in Resend's shape: each one's id is its place among them, from 0. */
    async function sentAttachments(projectId: string, id: string): Promise<Attachment[]> {
      const attachments = await listEmailAttachments({ db: ctx.db, projectId, id });
      return attachments.map((a: EmailAttachmentMeta) => ({
        object: 'attachment' as const,
        id: String(a.position),
        filename: a.filename,
        size: a.size,
        content_type: a.contentType,
        content_disposition: a.contentId ? ('inline' as const) : ('attachment' as const),
        ...(a.contentId ? { content_id: a.contentId } : {}),
        ...downloadLink(ctx, { projectId, kind: 'email-attachment', recordId: id, fileId: String(a.position) }),
      }));
    }

    /** One attachment of the list, or Resend's 404. */
    function oneOf(attachments: Attachment[], attachmentId: string): Attachment {
      const found = attachments.find((a) => a.id === attachmentId);
      if (!found) throw notFoundError('Attachment');
      return found;
    }

    app.get(
      '/emails/receiving',
      {
        config,
        schema: {
          tags,
          summary: 'List received emails (Resend)',
          operationId: 'resendListReceivedEmails',
          description: "Herald's inbound mail, newest first.",
          querystring: resendListQuery,
          response: { 200: resendList(resendReceivedItemSchema), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const cursor = await cursorOf(request.query, async (id) => {
          const message = await getInbound({ db: ctx.db, projectId, id });
          return { id: message.id, createdAt: message.receivedAt };
        });
        return toResendList(
          await listInbound({ db: ctx.db, projectId, limit: request.query.limit, cursor }),
          toResendReceivedItem,
        );
      },
    );

    app.get(
      '/emails/receiving/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Retrieve a received email (Resend)',
          operationId: 'resendGetReceivedEmail',
          params: idParams,
          querystring: getQuery,
          response: { 200: resendReceivedSchema, ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const { id } = request.params;
        const message = await getInbound({ db: ctx.db, projectId, id });
        return toResendReceived(
          message,
          downloadLink(ctx, { projectId, kind: 'inbound-raw', recordId: id, fileId: '' }),
        );
      },
    );

    for (const [path, kind, read] of [
      ['/emails/receiving/:id/attachments', 'ReceivedEmail', inboundAttachments],
      ['/emails/:id/attachments', 'Email', sentAttachments],
    ] as const) {
      const what = kind === 'Email' ? 'a sent email' : 'a received email';
      app.get(
        path,
        {
          config,
          schema: {
            tags,
            summary: `List the attachments of ${what} (Resend)`,
            operationId: `resendList${kind}Attachments`,
            description: 'Each with a `download_url` that works without a key for an hour.',
            params: idParams,
            querystring: resendListQuery,
            // 410: a sent email's attachments were deleted after the retention period.
            response: {
              200: resendList(resendAttachmentSchema.omit({ object: true })),
              ...resendErrors,
              410: resendErrorSchema,
            },
          },
        },
        async (request) => {
          const all = await read(projectOf(request), request.params.id);
          const page = pageOfList(all, request.query);
          return { ...page, data: page.data.map(({ object: _object, ...a }) => a) };
        },
      );

      app.get(
        `${path}/:attachmentId`,
        {
          config,
          schema: {
            tags,
            summary: `Retrieve an attachment of ${what} (Resend)`,
            operationId: `resendGet${kind}Attachment`,
            params: attachmentParams,
            response: { 200: resendAttachmentSchema, ...resendErrors, 410: resendErrorSchema },
          },
        },
        async (request) => oneOf(await read(projectOf(request), request.params.id), request.params.attachmentId),
      );
    }
  };
}

// Resend's `download_url`s: signed links to a file (an attachment, a raw message) that work without a key for an
// hour. The token names the project, the record and the file; the bytes are read when the link is followed, so a link
// to content that retention deleted since answers 410.
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { attachmentDisposition } from '../../lib/http.ts';
import { createDownloadToken, decodeDownloadToken } from '../../mail/links.ts';
import { getEmailAttachment } from '../emails/index.ts';
import { getInboundAttachment, getInboundRaw } from '../inbound/index.ts';
import { resendErrors, resendErrorSchema } from './resend.errors.ts';
import type { SignedLink } from './resend.receiving.map.ts';
import { RESEND_TAG } from './resend.tag.ts';

/** How long a download link works. */
export const DOWNLOAD_LINK_MS = 60 * 60 * 1000;

/** What a link can name: an attachment of a received message, a received message as received, a sent attachment. */
export type DownloadKind = 'inbound-attachment' | 'inbound-raw' | 'email-attachment';

/** The file a link names, as `serve` reads it. */
interface File {
  content: Readable;
  size: number;
  contentType: string;
  filename: string | null;
}

/** A signed link to a file of a project's record, valid for an hour from now. */
export function downloadLink(
  ctx: AppContext,
  file: { projectId: string; kind: DownloadKind; recordId: string; fileId: string },
): SignedLink {
  const expiresAt = new Date(Date.now() + DOWNLOAD_LINK_MS);
  const token = createDownloadToken(ctx.secrets.appSecret, { ...file, expiresAt });
  return {
    download_url: `${ctx.config.publicUrl}/resend/downloads/${token}`,
    expires_at: expiresAt.toISOString(),
  };
}

/** The file a verified, unexpired link names; 404 for a forged link, 410 for an expired one or deleted content. */
async function fileOf(ctx: AppContext, token: string): Promise<File> {
  const claims = decodeDownloadToken(ctx.secrets.appSecret, token);
  if (!claims) throw notFound('Download link');
  if (claims.expiresAt.getTime() <= Date.now())
    throw new AppError('GONE', 'This download link has expired', {
      suggestion: 'Read the attachment again for a new link: each works for an hour.',
    });
  const { db } = ctx;
  const { projectId, recordId: id, fileId } = claims;
  switch (claims.kind) {
    case 'inbound-raw': {
      const raw = await getInboundRaw({ db, projectId, id });
      return { ...raw, contentType: 'message/rfc822', filename: `${id}.eml` };
    }
    case 'inbound-attachment':
      return getInboundAttachment({ db, projectId, id, attachmentId: fileId });
    case 'email-attachment':
      return getEmailAttachment({ db, projectId, id, position: Number(fileId) });
    default:
      throw notFound('Download link');
  }
}

/** The route that serves download links (no key: the link's signature is the permission). */
export function resendDownloadRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/downloads/:token',
      {
        config: { auth: 'none' },
        schema: {
          tags: [RESEND_TAG],
          summary: 'Download a file by its signed link (Resend)',
          operationId: 'resendDownload',
          description:
            'The `download_url` of an attachment or a received message: works without a key for an hour; 410 ' +
            'once it has expired or the content was deleted after the retention period.',
          params: z.object({ token: z.string().max(2000) }),
          response: {
            200: { description: 'The file, with its content type', content: { '*/*': { schema: z.string() } } },
            ...resendErrors,
            410: resendErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const file = await fileOf(ctx, request.params.token);
        return reply
          .type(file.contentType)
          .header('content-disposition', attachmentDisposition(file.filename))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .header('content-length', file.size)
          .send(file.content as unknown as string);
      },
    );
  };
}

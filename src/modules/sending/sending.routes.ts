import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { z } from 'zod';
import { pageLocale } from '../../lib/i18n/index.ts';
import { acceptsHtml } from '../../lib/hosted-page.ts';
import { emailContentSchema, emailSourceSchema, getEmailContent, getEmailSource } from './sending.source.ts';
import { expiresInSchema, shareEmail, shareSchema, viewPage } from './sending.share.ts';

/** What the API reference says about each sending route, by operationId. */
const sendingRouteDocs = {
  getEmailSource:
    'The complete message: the copy the outbox wrote (MAIL_TRANSPORT=outbox), otherwise built again from ' +
    'what is stored (`rebuilt: true`: same body and Message-ID; the Date header is the handoff time, so ' +
    'the DKIM signature differs). 404 when the sender domain was deleted; 409 when the email cannot be ' +
    'built for its recipient; 410 once its content was deleted after the retention period ' +
    '(RETENTION_EMAIL_CONTENT_DAYS) or with its contact.',
  getEmailContent:
    'Subject, sender, recipient and bodies as the recipient reads them (before tracking), rendered again ' +
    'from what is stored, for every transport. 410 once its content was deleted after the retention ' +
    'period or with its contact.',
} as const;

/** Each message's content and raw source, built again by the code that built it for the transport. */
export function emailSourceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Emails'];

    app.get(
      '/emails/:id/source',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get the raw message of an email',
          operationId: 'getEmailSource',
          description: sendingRouteDocs.getEmailSource,
          params: idParams,
          response: { 200: envelope(emailSourceSchema), ...errors(404, 409, 410) },
        },
      },
      async (request) => ok(await getEmailSource({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/emails/:id/content',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get the content of an email',
          operationId: 'getEmailContent',
          description: sendingRouteDocs.getEmailContent,
          params: idParams,
          response: { 200: envelope(emailContentSchema), ...errors(404, 409, 410) },
        },
      },
      async (request) => ok(await getEmailContent({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/emails/:id/share',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Share an email',
          operationId: 'shareEmail',
          description:
            'A signed link to the email as its recipient reads it (no open or click counts from it; remote images ' +
            'load when the viewer asks), working until `expiresAt` (default 7 days, at most 90), and answering 410 ' +
            'after it, or once the content is deleted (retention, or with its contact).',
          params: idParams,
          body: z.object({ expiresIn: expiresInSchema.optional() }).nullable().optional(),
          response: { 200: envelope(shareSchema), ...errors(404, 410, 422) },
        },
      },
      async (request) =>
        ok(
          await shareEmail({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            expiresIn: request.body?.expiresIn,
          }),
        ),
    );

    app.get(
      '/v/:token',
      {
        config: { auth: 'none', page: 'email' } as const,
        schema: {
          tags: ['Public'],
          summary: 'An email in a browser',
          operationId: 'viewEmail',
          description:
            'The page of `{{viewInBrowserUrl}}` (for as long as the content is kept) and of share links (until ' +
            'they expire): 404 for a link that is not valid, 410 once it expired or the content is gone. ' +
            '`?images=1` loads remote images.',
          params: z.object({ token: z.string().max(2048) }),
          querystring: z.object({ images: z.enum(['0', '1']).optional() }),
          response: {
            200: { description: 'The email', content: { 'text/html': { schema: z.string() } } },
            404: {
              description: 'The link is not valid (a page for browsers, the error envelope otherwise)',
              content: { 'text/html': { schema: z.string() }, 'application/json': { schema: errors(404)[404] } },
            },
            410: {
              description: 'Expired, or the content is gone (a page for browsers, the error envelope otherwise)',
              content: { 'text/html': { schema: z.string() }, 'application/json': { schema: errors(410)[410] } },
            },
          },
        },
      },
      async (request, reply) => {
        const lang = pageLocale({ contactLocale: null, acceptLanguage: request.headers['accept-language'] });
        const page = await viewPage(ctx, request.params.token, lang, request.query.images === '1');
        // A browser gets a page; any other client the error envelope.
        if (page.error && !acceptsHtml(request)) throw page.error;
        return reply
          .code(page.status)
          .header('Cache-Control', 'private, no-store')
          .type('text/html; charset=utf-8')
          .send(page.html);
      },
    );
  };
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { acceptsHtml, FORM_BODY_LIMIT } from '../../lib/hosted-page.ts';
import { errors, ok } from '../../lib/http.ts';
import { pageLocale, type Language } from '../../lib/i18n/index.ts';
import { isId } from '../../lib/ids.ts';
import { formActionTo } from '../../plugins/security-headers.ts';
import { loadFormAssets } from './forms.assets.ts';
import { donePage, formPage, missingPage, unavailablePage } from './forms.pages.ts';
import { newChallenge, powSecrets } from './forms.pow.ts';
import { findPublicForm, type FormRow } from './forms.repo.ts';
import { formRouteDocs, submissionAccepted } from './forms.schemas.ts';
import { submitForm, type PostedValues } from './forms.submit.ts';

const html = 'text/html; charset=utf-8';
const formParams = z.object({ id: z.string().max(64).meta({ description: 'The form id' }) });
const htmlOrError = (description: string, status: number) => ({
  description,
  content: { 'text/html': { schema: z.string() }, 'application/json': { schema: errors(status)[status] } },
});
const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

/** A browser posting the form itself (not a script sending JSON) gets pages; anything else the JSON envelope. */
const wantsPage = (request: FastifyRequest) =>
  acceptsHtml(request) && !/\bjson\b/.test(request.headers['content-type'] ?? '');

const languageOf = (request: FastifyRequest, form: FormRow | null): Language =>
  pageLocale({ contactLocale: form?.locale, acceptLanguage: request.headers['accept-language'] });

/** The posted values: the first of each name from a urlencoded body, or a JSON object as it is. */
function valuesOf(body: unknown): PostedValues {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as PostedValues;
  const values: PostedValues = {};
  for (const [name, value] of new URLSearchParams(typeof body === 'string' ? body : ''))
    if (!Object.hasOwn(values, name)) values[name] = value;
  return values;
}

async function formOr404(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, id: string) {
  const form = isId(id) ? await findPublicForm(ctx.db, id.toLowerCase()) : null;
  if (form) {
    if (form.redirectUrl) formActionTo(reply, new URL(form.redirectUrl).origin);
    return form;
  }
  if (!wantsPage(request)) throw notFound('Form');
  await reply
    .code(404)
    .type(html)
    .send(missingPage(languageOf(request, null)));
  return null;
}

/** The hosted page of each form, its submissions, its proof-of-work challenges, and the files they load. */
export function formPageRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    const tags = ['Forms'];
    const config = { auth: 'none', rateLimit: 'links', page: 'form' } as const;
    const assets = loadFormAssets();
    const secrets = powSecrets(ctx.secrets.appSecret);

    app.get(
      '/f-assets/:file',
      {
        config: { auth: 'none' },
        schema: {
          tags,
          summary: "A file of the forms' pages",
          operationId: 'formAsset',
          params: z.object({ file: z.string().max(64) }),
          response: {
            200: {
              description: 'A stylesheet or script',
              content: { 'text/javascript': { schema: z.string() }, 'text/css': { schema: z.string() } },
            },
            ...errors(404),
          },
        },
      },
      async (request, reply) => {
        const asset = assets.get(request.params.file);
        if (!asset) throw notFound('File');
        return reply.header('Cache-Control', 'public, max-age=3600').type(asset.type).send(asset.body);
      },
    );

    app.get(
      '/f/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Hosted form',
          operationId: 'formPage',
          description: formRouteDocs.formPage,
          params: formParams,
          response: { 200: htmlPage('The form'), 404: htmlOrError('No such form', 404), ...errors() },
        },
      },
      async (request, reply) => {
        const form = await formOr404(ctx, request, reply, request.params.id);
        if (!form) return reply;
        reply.header('Cache-Control', 'no-store');
        return reply.type(html).send(formPage({ form, lang: languageOf(request, form) }));
      },
    );

    app.get(
      '/f/:id/done',
      {
        config,
        schema: {
          tags,
          summary: 'After a submission',
          operationId: 'formDone',
          params: formParams,
          querystring: z.object({ confirm: z.enum(['1']).optional() }),
          response: { 200: htmlPage('The success message'), 404: htmlOrError('No such form', 404), ...errors() },
        },
      },
      async (request, reply) => {
        const form = await formOr404(ctx, request, reply, request.params.id);
        if (!form) return reply;
        const confirm = request.query.confirm === '1';
        return reply.type(html).send(donePage(languageOf(request, form), form, confirm));
      },
    );

    app.get(
      '/f/:id/challenge',
      {
        config: { auth: 'none', rateLimit: 'links' },
        schema: {
          tags,
          summary: 'A proof-of-work challenge',
          operationId: 'formChallenge',
          description: formRouteDocs.formChallenge,
          params: formParams,
          response: {
            200: z
              .object({ parameters: z.record(z.string(), z.unknown()), signature: z.string().optional() })
              .meta({ description: 'The challenge, as the ALTCHA widget reads it' }),
            ...errors(404),
          },
        },
      },
      async (request, reply) => {
        const id = request.params.id.toLowerCase();
        const form = isId(id) ? await findPublicForm(ctx.db, id) : null;
        if (!form || form.captcha !== 'pow') throw notFound('Form');
        reply.header('Cache-Control', 'no-store');
        const challenge = await newChallenge(secrets, form.id);
        return { parameters: { ...challenge.parameters }, signature: challenge.signature };
      },
    );

    app.post(
      '/f/:id',
      {
        config: { ...config, rateLimit: 'forms' },
        schema: {
          tags,
          summary: 'Submit a form',
          operationId: 'submitForm',
          description: formRouteDocs.submitForm,
          params: formParams,
          response: {
            200: z.object({ success: z.literal(true), data: submissionAccepted }),
            303: z.null().meta({ description: 'To the redirectUrl, or to the success page (Location header)' }),
            404: htmlOrError('No such form', 404),
            409: htmlOrError('The form cannot take signups now', 409),
            422: htmlOrError('Fields to correct: the form again with their messages, or the error envelope', 422),
            ...errors(),
          },
        },
      },
      async (request, reply) => {
        const form = await formOr404(ctx, request, reply, request.params.id);
        if (!form) return reply;
        const values = valuesOf(request.body);
        const page = wantsPage(request);
        const lang = languageOf(request, form);
        const submitter = {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          acceptLanguage: request.headers['accept-language'],
        };
        const outcome = await submitForm({ ctx, form, values, submitter }).catch((error: unknown) => {
          if (!page || !(error instanceof AppError)) throw error;
          if (error.code === 'VALIDATION_ERROR')
            return reply
              .code(422)
              .type(html)
              .send(formPage({ form, lang, values, errors: error.errors ?? [] }));
          if (error.code === 'CONFLICT') return reply.code(409).type(html).send(unavailablePage(lang, form));
          throw error;
        });
        if (!('kind' in outcome)) return reply;
        reply.header('Cache-Control', 'no-store');
        // Honeypot catches are answered as successes: a bot learns nothing.
        const confirm = outcome.kind === 'accepted' ? outcome.confirmationSent : form.doubleOptIn;
        if (typeof request.body === 'object' && request.body !== null) {
          const message = form.successMessage ?? (confirm ? 'Check your inbox to confirm' : 'Subscribed');
          return ok({ message, redirectUrl: form.redirectUrl });
        }
        const done = `/f/${form.id}/done${confirm ? '?confirm=1' : ''}`;
        return reply.code(303).redirect(form.redirectUrl ?? done);
      },
    );
  };
}

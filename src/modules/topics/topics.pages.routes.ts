import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { refuseFormFromElsewhere } from '../../lib/form-origin.ts';
import { acceptsHtml, FORM_BODY_LIMIT, FORM_CONTENT_TYPES, invalidLinkPage } from '../../lib/hosted-page.ts';
import { errors } from '../../lib/http.ts';
import { pageLocale } from '../../lib/i18n/index.ts';
import { readPreferences, savePreferences, type ManageAction } from './topics.manage.ts';
import { preferencesPage, type PreferencesNotice } from './topics.pages.ts';
import { topicRouteDocs } from './topics.schemas.ts';
import { SNOOZE_CHOICES, type SnoozeChoice } from '../contacts/index.ts';

const tokenParams = z.object({ token: z.string().max(2048).meta({ description: 'The signed token of the link' }) });
const html = 'text/html; charset=utf-8';
const pageResponse = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const invalid = {
  description: 'The token is not valid: an HTML page for browsers, the error envelope otherwise',
  content: { 'text/html': { schema: z.string() }, 'application/json': { schema: errors(404)[404] } },
};

/** The language of a page: the contact's when the token names one, else the browser's (lib/i18n). */
const languageOf = (request: FastifyRequest, contactLocale: string | null = null) =>
  pageLocale({ contactLocale, acceptLanguage: request.headers['accept-language'] });

function answerInvalid(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!acceptsHtml(request)) throw notFound('Link');
  return reply
    .code(404)
    .type(html)
    .send(invalidLinkPage(languageOf(request)));
}

const NOTICE_OF: Record<ManageAction['type'], PreferencesNotice> = {
  save: 'saved',
  unsubscribe: 'unsubscribed',
  resubscribe: 'resubscribed',
  snooze: 'snoozed',
  resume: 'resumed',
};

/**
 * The form's fields: `action` (save, unsubscribe, resubscribe, snooze, resume), one `topic` per checked box, and for
 * snooze the `pause` chosen (2w, 1m, 3m) — or the same as JSON.
 */
function actionOf(body: unknown): ManageAction | null {
  let action: unknown;
  let topics: unknown[];
  let pause: unknown;
  if (typeof body === 'object' && body !== null) {
    const fields = body as Record<string, unknown>;
    action = fields.action;
    topics = [fields.topic ?? []].flat();
    pause = fields.pause;
  } else {
    const form = new URLSearchParams(typeof body === 'string' ? body : '');
    action = form.get('action');
    topics = form.getAll('topic');
    pause = form.get('pause');
  }
  if (action === 'unsubscribe' || action === 'resubscribe' || action === 'resume') return { type: action };
  if (action === 'snooze')
    return typeof pause === 'string' && Object.hasOwn(SNOOZE_CHOICES, pause)
      ? { type: 'snooze', choice: pause as SnoozeChoice }
      : null;
  if (action === 'save')
    return { type: 'save', topicIds: topics.filter((t): t is string => typeof t === 'string').slice(0, 500) };
  return null;
}

/** The preference centre (`{{manageUrl}}`): no API key, the token is the credential. */
export function topicPageRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(
      FORM_CONTENT_TYPES,
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    const tags = ['Links in mail'];
    const config = { auth: 'none', rateLimit: 'links' } as const;

    app.get(
      '/manage/:token',
      {
        config,
        schema: {
          tags,
          summary: 'Preference centre',
          operationId: 'managePreferences',
          params: tokenParams,
          description: topicRouteDocs.managePreferences,
          response: { 200: pageResponse('The preference page'), 404: invalid, ...errors() },
        },
      },
      async (request, reply) => {
        const state = await readPreferences(ctx, request.params.token);
        reply.header('Cache-Control', 'no-store');
        if (!state) return answerInvalid(request, reply);
        return reply
          .type(html)
          .send(preferencesPage(languageOf(request, state.contact.locale), request.params.token, state));
      },
    );

    app.post(
      '/manage/:token',
      {
        config,
        schema: {
          tags,
          summary: 'Save preferences',
          operationId: 'savePreferences',
          params: tokenParams,
          description: topicRouteDocs.savePreferences,
          response: { 200: pageResponse('The preference page, saved'), 404: invalid, ...errors(400, 403) },
        },
      },
      async (request, reply) => {
        refuseFormFromElsewhere(request);
        const action = actionOf(request.body);
        if (!action)
          throw new AppError(
            'BAD_REQUEST',
            'The form needs action=save, unsubscribe, resubscribe, resume, or snooze with pause=2w, 1m or 3m',
          );
        const state = await savePreferences(ctx, request.params.token, action);
        reply.header('Cache-Control', 'no-store');
        if (!state) return answerInvalid(request, reply);
        const lang = languageOf(request, state.contact.locale);
        return reply.type(html).send(preferencesPage(lang, request.params.token, state, NOTICE_OF[action.type]));
      },
    );
  };
}

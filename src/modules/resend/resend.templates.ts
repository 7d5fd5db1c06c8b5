// Resend's templates on Herald's templates and their versions. A template made here starts as a draft (not sendable
// until published); an update saves the draft, and what sends stays the published version until `publish`.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { validationError } from '../../lib/errors.ts';
import { idParams } from '../../lib/http.ts';
import { isId } from '../../lib/ids.ts';
import { projectOf } from '../../plugins/auth.ts';
import { findDataFallbacks } from '../contacts/index.ts';
import {
  createTemplate,
  deleteTemplate,
  findTemplate,
  getTemplate,
  listTemplates,
  publishTemplate,
  updateTemplate,
} from '../templates/index.ts';
import { inResendFields, resendErrors } from './resend.errors.ts';
import type { ResendEmailBody } from './resend.emails.map.ts';
import { resendList, resendListOf, resendListQuery } from './resend.pagination.ts';
import { RESEND_READ, RESEND_TAG, RESEND_WRITE } from './resend.tag.ts';
import {
  checkedDeclarations,
  liquidOf,
  resendTemplateBody,
  resendTemplateItemSchema,
  resendTemplatePatch,
  resendTemplateSchema,
  TEMPLATE_FIELDS,
  templateReplyToOf,
  templateSenderOf,
  toResendTemplate,
  toResendTemplateItem,
  variablesOf,
  withFallbacks,
  type ResendTemplatePatch,
} from './resend.templates.map.ts';

const templateRef = z.object({ object: z.literal('template'), id: z.string() });

/** The longest name Herald keeps, for the copy's name. */
const NAME_MAX = 200;

const inResendTerms = <T>(run: () => Promise<T>): Promise<T> => inResendFields(TEMPLATE_FIELDS, run);

/** `alias` is refused rather than dropped: Herald names templates by their id only. */
function refuseAlias(body: { alias?: string | undefined }): void {
  if (body.alias !== undefined)
    throw validationError('alias', 'alias: Herald templates have no alias; use the template id', 'not_supported');
}

/** The content fields of a Herald template request that a Resend create or update gives. */
interface ContentInput {
  format?: 'html';
  body?: string;
  subject?: string;
  from?: string;
  fromName?: string | null;
  replyTo?: string;
}

/** The Herald content fields of a Resend create or update (Liquid read from Resend's variables). */
function contentOf(
  body: ResendTemplatePatch,
  working: { subject: string; body: string; format: string } | null,
): ContentInput {
  // Without `variables`, the fallbacks the template has are kept for the new HTML and subject.
  const declared =
    body.variables !== undefined || !working
      ? checkedDeclarations(body.variables ?? [])
      : new Map(
          variablesOf([working.subject, working.body])
            .filter((v) => v.fallback !== null)
            .map((v) => [v.key, v.fallback]),
        );
  const input: ContentInput = {};
  if (body.html !== undefined) {
    input.format = 'html';
    input.body = liquidOf(body.html, declared);
  } else if (body.variables !== undefined && working) {
    if (working.format !== 'html')
      throw validationError('variables', `variables: this template is written in ${working.format}; edit it in Herald`);
    input.body = withFallbacks(working.body, declared);
  }
  if (body.subject !== undefined) input.subject = liquidOf(body.subject, declared);
  else if (body.variables !== undefined && working) input.subject = withFallbacks(working.subject, declared);
  if (body.from !== undefined) Object.assign(input, templateSenderOf(body.from));
  if (body.reply_to !== undefined) input.replyTo = templateReplyToOf(body.reply_to);
  return input;
}

/**
 * The checks Resend makes of a send with a template, in Herald's terms: the payload gives the subject when the template
 * has none, and every variable the published version reads without a fallback (a declared contact property's
 * fallback counts) has a value. An unknown or unpublished template is left to the send (404, 422).
 */
export async function checkTemplateSends(opts: {
  db: Executor;
  projectId: string;
  bodies: ResendEmailBody[];
  batch: boolean;
}): Promise<void> {
  let fallbacks: Record<string, unknown> | null = null;
  for (const [i, body] of opts.bodies.entries()) {
    if (!body.template || !isId(body.template.id)) continue;
    const row = await findTemplate({ db: opts.db, projectId: opts.projectId, id: body.template.id });
    if (!row || row.version === 0) continue;
    const at = opts.batch ? `${i}.` : '';
    if (body.subject === undefined && row.subject === '')
      throw validationError(`${at}subject`, `${at}subject: the template has no subject; give one`, 'required');
    fallbacks ??= await findDataFallbacks({ db: opts.db, projectId: opts.projectId });
    const given = body.template.variables ?? {};
    const missing = variablesOf([row.subject, row.body])
      .filter((v) => v.fallback === null && given[v.key] === undefined && fallbacks![v.key] === undefined)
      .map((v) => v.key);
    if (missing.length > 0)
      throw validationError(
        `${at}template.variables`,
        `${at}template.variables: give ${missing.join(', ')} (the template has no fallback for them)`,
        'missing_variables',
      );
  }
}

/** Resend's template routes. */
export function resendTemplateRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = [RESEND_TAG];

    app.post(
      '/templates',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Create a template (Resend)',
          operationId: 'resendCreateTemplate',
          description:
            'A transactional Herald template, saved as a draft in no layout: it sends once published. ' +
            '`{{{NAME}}}` is read as Liquid `{{ NAME }}`, each declared fallback as `| default:`.',
          body: resendTemplateBody,
          response: { 200: templateRef, ...resendErrors },
        },
      },
      async (request) => {
        const body = request.body;
        refuseAlias(body);
        const template = await inResendTerms(() =>
          createTemplate({
            ctx,
            projectId: projectOf(request),
            input: {
              name: body.name,
              type: 'TRANSACTIONAL',
              subject: '',
              layoutId: null,
              ...contentOf(body, null),
              publish: false,
            },
          }),
        );
        return { object: 'template' as const, id: template.id };
      },
    );

    app.get(
      '/templates',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'List templates (Resend)',
          operationId: 'resendListTemplates',
          description: "The project's templates, newest first.",
          querystring: resendListQuery,
          response: { 200: resendList(resendTemplateItemSchema), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        return resendListOf(
          request.query,
          (id) => getTemplate({ db: ctx.db, projectId, id }),
          (cursor) => listTemplates({ db: ctx.db, projectId, limit: request.query.limit, cursor }),
          toResendTemplateItem,
        );
      },
    );

    app.get(
      '/templates/:id',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'Retrieve a template (Resend)',
          operationId: 'resendGetTemplate',
          description: 'Its working content: the draft when there is one, else the published version.',
          params: idParams,
          response: { 200: resendTemplateSchema, ...resendErrors },
        },
      },
      async (request) =>
        toResendTemplate(await getTemplate({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/templates/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Update a template (Resend)',
          operationId: 'resendUpdateTemplate',
          description:
            'The name changes at once; content changes save the draft, and sends keep the published version ' +
            'until the template is published again.',
          params: idParams,
          body: resendTemplatePatch,
          response: { 200: templateRef, ...resendErrors },
        },
      },
      async (request) => {
        const body = request.body;
        refuseAlias(body);
        const projectId = projectOf(request);
        const current = await getTemplate({ db: ctx.db, projectId, id: request.params.id });
        const working = current.draft ?? current;
        const template = await inResendTerms(() =>
          updateTemplate({
            ctx,
            projectId,
            id: current.id,
            input: {
              ...(body.name !== undefined ? { name: body.name } : {}),
              ...contentOf(body, working),
              publish: false,
            },
          }),
        );
        return { object: 'template' as const, id: template.id };
      },
    );

    app.delete(
      '/templates/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Delete a template (Resend)',
          operationId: 'resendDeleteTemplate',
          description: "409 while a workflow's step sends it, or while it is the double opt-in confirmation email.",
          params: idParams,
          response: { 200: templateRef.extend({ deleted: z.boolean() }), ...resendErrors },
        },
      },
      async (request) => {
        const { id } = await deleteTemplate({ ctx, projectId: projectOf(request), id: request.params.id });
        return { object: 'template' as const, id, deleted: true };
      },
    );

    app.post(
      '/templates/:id/publish',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Publish a template (Resend)',
          operationId: 'resendPublishTemplate',
          description: 'The draft becomes the published version that sends use; with no draft nothing changes.',
          params: idParams,
          response: { 200: templateRef, ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const current = await getTemplate({ db: ctx.db, projectId, id: request.params.id });
        if (current.draft) await publishTemplate({ ctx, projectId, id: current.id });
        return { object: 'template' as const, id: current.id };
      },
    );

    app.post(
      '/templates/:id/duplicate',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Duplicate a template (Resend)',
          operationId: 'resendDuplicateTemplate',
          description:
            'A new draft with the working content (the draft, else the published version), named "… (copy)".',
          params: idParams,
          response: { 200: templateRef, ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const original = await getTemplate({ db: ctx.db, projectId, id: request.params.id });
        const shown = original.draft ?? original;
        const copy = await createTemplate({
          ctx,
          projectId,
          input: {
            name: `${original.name.slice(0, NAME_MAX - 7)} (copy)`,
            type: original.type,
            subject: shown.subject,
            format: shown.format,
            ...(shown.format === 'html' ? { body: shown.body } : { content: shown.content }),
            from: shown.from,
            fromName: shown.fromName,
            replyTo: shown.replyTo,
            ...('layoutId' in shown ? { layoutId: shown.layoutId } : {}),
            translations: shown.translations,
            sampleData: original.sampleData,
            publish: false,
          },
        });
        return { object: 'template' as const, id: copy.id };
      },
    );
  };
}

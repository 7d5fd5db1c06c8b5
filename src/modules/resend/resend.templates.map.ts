// Resend's templates as Herald templates: bodies in, templates out. Resend's `{{{NAME}}}` variables are read as
// Liquid's `{{ NAME }}`, and a declared variable's fallback is written into the Liquid as `| default:` wherever the
// variable is used, so the template renders the same through every Herald API.
import { z } from 'zod';
import { emailAddressSchema } from '../../lib/email-address.ts';
import { validationError } from '../../lib/errors.ts';
import { nameSchema } from '../../lib/text.ts';
import { singleLine } from '../templates/index.ts';
import { liquidOfResend, senderOf } from './resend.broadcasts.map.ts';
import { MAX_VALUE_LENGTH, MAX_VARIABLES, VARIABLE_KEY } from './resend.emails.map.ts';

/** Names Resend keeps for the contact's own fields and the message's links. */
const RESERVED_KEYS = new Set(['FIRST_NAME', 'LAST_NAME', 'EMAIL', 'UNSUBSCRIBE_URL', 'RESEND_UNSUBSCRIBE_URL']);
const RESERVED_EXACT = new Set(['contact', 'this']);

/** Liquid names every message has whatever the variables: they are not a template's variables. */
const BUILT_IN = new Set([
  'email',
  'firstName',
  'lastName',
  'contact',
  'unsubscribeUrl',
  'manageUrl',
  'viewInBrowserUrl',
  'confirmUrl',
  'true',
  'false',
  'nil',
  'null',
  'empty',
  'blank',
]);

const variableType = z.enum(['string', 'number']);
const fallbackValue = z.union([z.string().max(MAX_VALUE_LENGTH), z.number()]).nullable();

const variableDeclaration = z.object({
  key: z.string().min(1).max(50),
  type: variableType,
  fallback_value: fallbackValue.optional(),
});

export type VariableDeclaration = z.infer<typeof variableDeclaration>;

const replyTo = z.union([z.string().min(3).max(320), z.array(z.string().min(3).max(320)).min(1).max(5)]);

export const resendTemplateBody = z.object({
  name: nameSchema(),
  html: z.string().min(1).max(1_000_000),
  subject: singleLine(998).optional(),
  text: z.string().max(1_000_000).optional().describe('Not kept: the text part is made from the HTML'),
  from: z.string().min(3).max(500).optional().describe('"Name <address>" or an address, on a verified domain'),
  reply_to: replyTo.optional().describe('One address (Herald templates have one reply-to)'),
  alias: z.string().max(200).optional().describe('Not supported: Herald templates are named by their id'),
  variables: z
    .array(variableDeclaration)
    .max(MAX_VARIABLES)
    .optional()
    .describe('Each fallback becomes a Liquid `| default:` where the variable is used'),
});

export const resendTemplatePatch = resendTemplateBody.partial();

export type ResendTemplateBody = z.infer<typeof resendTemplateBody>;
export type ResendTemplatePatch = z.infer<typeof resendTemplatePatch>;

const variableSchema = z.object({
  key: z.string(),
  type: variableType,
  fallback_value: z.union([z.string(), z.number()]).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const resendTemplateSchema = z
  .object({
    object: z.literal('template'),
    id: z.string(),
    current_version_id: z.string().describe("The number of the version shown: the draft's, else the published one"),
    alias: z.string().nullable(),
    name: z.string(),
    status: z.enum(['draft', 'published']),
    published_at: z.string().nullable(),
    from: z.string().nullable(),
    subject: z.string().nullable(),
    reply_to: z.array(z.string()).nullable(),
    html: z.string(),
    text: z.string().nullable(),
    variables: z.array(variableSchema),
    has_unpublished_versions: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ResendTemplate' });

export const resendTemplateItemSchema = resendTemplateSchema.pick({
  id: true,
  name: true,
  status: true,
  published_at: true,
  alias: true,
  created_at: true,
  updated_at: true,
});

/** `{{ KEY }}` or `{{ KEY | default: <literal> }}`: a plain variable, with the fallback it may have. */
const LITERAL = String.raw`"(?:[^"\\]|\\.)*"|'[^']*'|-?\d+(?:\.\d+)?`;
const PLAIN_VARIABLE = new RegExp(
  String.raw`\{\{-?\s*([A-Za-z_]\w*)\s*(?:\|\s*default\s*:\s*(${LITERAL})\s*)?-?\}\}`,
  'g',
);

/** A Liquid literal's value. */
function literalValue(literal: string): string | number {
  if (literal.startsWith("'")) return literal.slice(1, -1);
  if (!literal.startsWith('"')) return Number(literal);
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}

/** A value as a Liquid literal. */
const literalOf = (value: string | number) => (typeof value === 'number' ? String(value) : JSON.stringify(value));

export interface TemplateVariable {
  key: string;
  type: 'string' | 'number';
  fallback: string | number | null;
}

/**
 * The plain variables Liquid sources read (built-in names left out), in order of first use; each one's fallback and
 * type are those of its first use (a number fallback makes it a number, any other a string).
 */
export function variablesOf(sources: string[]): TemplateVariable[] {
  const found = new Map<string, TemplateVariable>();
  for (const source of sources)
    for (const [, key, literal] of source.matchAll(PLAIN_VARIABLE)) {
      if (BUILT_IN.has(key!) || found.has(key!)) continue;
      const fallback = literal === undefined ? null : literalValue(literal);
      found.set(key!, { key: key!, type: typeof fallback === 'number' ? 'number' : 'string', fallback });
    }
  return [...found.values()];
}

/** The declarations checked as Resend checks them (name, reserved names, a fallback of the variable's type). */
export function checkedDeclarations(declared: VariableDeclaration[]): Map<string, string | number | null> {
  const out = new Map<string, string | number | null>();
  declared.forEach((variable, i) => {
    const field = `variables.${i}`;
    if (!VARIABLE_KEY.test(variable.key))
      throw validationError(`${field}.key`, `${field}.key: use 1-50 letters, digits or _`, 'invalid_key');
    if (RESERVED_KEYS.has(variable.key.toUpperCase()) || RESERVED_EXACT.has(variable.key) || BUILT_IN.has(variable.key))
      throw validationError(`${field}.key`, `${field}.key: "${variable.key}" is reserved`, 'reserved');
    if (out.has(variable.key))
      throw validationError(`${field}.key`, `${field}.key: "${variable.key}" is declared twice`, 'duplicate');
    const fallback = variable.fallback_value ?? null;
    if (fallback !== null && typeof fallback !== variable.type)
      throw validationError(
        `${field}.fallback_value`,
        `${field}.fallback_value: must be a ${variable.type}, as the variable's type`,
        'invalid_type',
      );
    if (typeof fallback === 'number' && !/^-?\d+(\.\d+)?$/.test(String(fallback)))
      throw validationError(
        `${field}.fallback_value`,
        `${field}.fallback_value: give a number written without an exponent`,
        'invalid_number',
      );
    out.set(variable.key, fallback);
  });
  return out;
}

/** Liquid with each declared variable's fallback written as `| default:` wherever it is used (none: removed). */
export function withFallbacks(liquid: string, declared: Map<string, string | number | null>): string {
  if (declared.size === 0) return liquid;
  return liquid.replace(PLAIN_VARIABLE, (whole, key: string) => {
    if (!declared.has(key)) return whole;
    const fallback = declared.get(key)!;
    return fallback === null ? `{{ ${key} }}` : `{{ ${key} | default: ${literalOf(fallback)} }}`;
  });
}

/** Resend's HTML or subject as Herald's Liquid: its `{{{NAME}}}` variables read, the declared fallbacks in. */
export function liquidOf(source: string, declared: Map<string, string | number | null>): string {
  return withFallbacks(liquidOfResend(source), declared);
}

/** Herald's sender fields of a Resend `from`; an address that is not one is a 422 on `from`. */
export function templateSenderOf(from: string): { from: string; fromName: string | null } {
  const sender = senderOf(from);
  if (!emailAddressSchema.safeParse(sender.from).success)
    throw validationError('from', 'from: give an address, or "Name <address>"', 'invalid_email');
  return sender;
}

/** Herald's reply-to of a Resend `reply_to`: one address (a 422 otherwise). */
export function templateReplyToOf(value: string | string[]): string {
  const list = [value].flat();
  if (list.length !== 1)
    throw validationError('reply_to', 'reply_to: give one address (a Herald template has one reply-to)', 'too_big');
  const address = list[0]!;
  if (!emailAddressSchema.safeParse(address).success)
    throw validationError('reply_to', 'reply_to: give an email address', 'invalid_email');
  return address;
}

/** What Herald's template view gives this mapping: the published fields, the draft's content, the times. */
export interface TemplateViewLike {
  id: string;
  name: string;
  subject: string;
  format: string;
  body: string;
  from: string | null;
  fromName: string | null;
  replyTo: string | null;
  version: number;
  publishedAt: string | null;
  hasUnpublishedChanges: boolean;
  draft: {
    version: number;
    subject: string;
    body: string;
    from: string | null;
    fromName: string | null;
    replyTo: string | null;
  } | null;
  createdAt: string;
  updatedAt: string;
}

/** A Herald template as Resend's list shows it. */
export function toResendTemplateItem(view: Omit<TemplateViewLike, 'draft'>): z.infer<typeof resendTemplateItemSchema> {
  return {
    id: view.id,
    name: view.name,
    status: view.version === 0 ? 'draft' : 'published',
    published_at: view.version === 0 ? null : view.publishedAt,
    alias: null,
    created_at: view.createdAt,
    updated_at: view.updatedAt,
  };
}

/** A Herald template as Resend's GET answers it: its working content (the draft, else the published version). */
export function toResendTemplate(view: TemplateViewLike): z.infer<typeof resendTemplateSchema> {
  const shown = view.draft ?? view;
  return {
    object: 'template',
    ...toResendTemplateItem(view),
    current_version_id: String(view.draft?.version ?? view.version),
    from: shown.from ? (shown.fromName ? `${shown.fromName} <${shown.from}>` : shown.from) : null,
    subject: shown.subject === '' ? null : shown.subject,
    reply_to: shown.replyTo ? [shown.replyTo] : null,
    html: shown.body,
    text: null,
    variables: variablesOf([shown.subject, shown.body]).map((variable) => ({
      key: variable.key,
      type: variable.type,
      fallback_value: variable.fallback,
      created_at: view.createdAt,
      updated_at: view.updatedAt,
    })),
    has_unpublished_versions: view.hasUnpublishedChanges,
  };
}

/** Herald's template fields by the Resend field they came from, for the messages of 422s. */
export const TEMPLATE_FIELDS: Record<string, string> = { body: 'html', fromName: 'from', replyTo: 'reply_to' };

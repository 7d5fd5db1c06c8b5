// A submission of a signup form: the honeypot, the proof-of-work check, the fields, then the contact — created, or
// for an existing one only the form's topics and list (its data and subscription are never changed by a form, whose
// sender cannot prove the address is theirs; only confirming the double opt-in email subscribes it).
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { JsonObject } from '../../db/schema/index.ts';
import { parseAddress } from '../../lib/email-address.ts';
import { AppError, type FieldError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { acceptedLocales } from '../../lib/locale.ts';
import {
  findContactsByEmails,
  normalizeEmail,
  upsertContacts,
  type ConsentSource,
  type ContactRow,
} from '../contacts/index.ts';
import { addSegmentMembers } from '../segments/index.ts';
import { getProjectSettings } from '../settings/index.ts';
import { requestConfirmation } from '../subscribe/index.ts';
import { chooseTopics, lockTopics } from '../topics/index.ts';
import { checkSolution, powSecrets } from './forms.pow.ts';
import * as repo from './forms.repo.ts';
import { HONEYPOT_FIELD, POW_FIELD } from './forms.schemas.ts';

/** The longest value a text field takes. */
export const MAX_TEXT_LENGTH = 1000;

/** The posted values by field name: a string, or a boolean from JSON. */
export type PostedValues = Record<string, unknown>;

/** Who posted, as the request tells it: kept with the consent, and for a new contact's language. */
export interface Submitter {
  ip: string;
  userAgent: string | undefined;
  acceptLanguage: string | undefined;
}

export type SubmitOutcome = { kind: 'accepted'; confirmationSent: boolean } | { kind: 'spam' };

/** The error codes of a field, each with the hosted page's text for it (lib/i18n). */
export const FIELD_CODES = {
  required: 'form.required',
  invalid_email: 'form.invalidEmail',
  invalid_choice: 'form.invalidChoice',
  too_long: 'form.required',
  pow_failed: 'form.pow.failed',
} as const;
type FieldCode = keyof typeof FIELD_CODES;

const MESSAGES: Record<FieldCode, string> = {
  required: 'This field is required',
  invalid_email: 'Not a valid email address',
  invalid_choice: 'Not one of the options',
  too_long: `At most ${MAX_TEXT_LENGTH} characters`,
  pow_failed: 'The proof-of-work solution is missing, forged, expired or was used already',
};

const fieldError = (field: string, code: FieldCode): FieldError => ({ field, code, message: MESSAGES[code] });
const invalid = (errors: FieldError[]) =>
  new AppError('VALIDATION_ERROR', 'The form has fields to correct', { errors });

const isChecked = (value: unknown) =>
  value === true || (typeof value === 'string' && ['on', 'yes', 'true', '1'].includes(value.toLowerCase()));
const textOf = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The email and the new contact's data the fields give, or a 422 naming each field to correct. */
function readFields(form: repo.FormRow, values: PostedValues): { email: string; data: JsonObject } {
  const errors: FieldError[] = [];
  const data: JsonObject = {};
  let email = '';
  for (const field of form.fields) {
    const raw = values[field.key];
    if (field.type === 'checkbox') {
      if (field.required && !isChecked(raw)) errors.push(fieldError(field.key, 'required'));
      data[field.key] = isChecked(raw);
      continue;
    }
    const value = textOf(raw);
    if (value === '') {
      if (field.required) errors.push(fieldError(field.key, 'required'));
    } else if (value.length > MAX_TEXT_LENGTH || value.includes('\0')) {
      errors.push(fieldError(field.key, 'too_long'));
    } else if (field.type === 'email') {
      if (parseAddress(value).ok) email = value;
      else errors.push(fieldError(field.key, 'invalid_email'));
    } else if (field.type === 'select' && !field.options?.includes(value)) {
      errors.push(fieldError(field.key, 'invalid_choice'));
    } else {
      data[field.key] = value;
    }
  }
  if (errors.length > 0) throw invalid(errors);
  return { email, data };
}

/**
 * The contact of a submission (created, or found and left as it is), its topics and list, and the submission's row,
 * in the caller's transaction.
 */
async function writeSubmission(opts: {
  tx: Executor;
  form: repo.FormRow;
  email: string;
  data: JsonObject;
  submitter: Submitter;
  consent: ConsentSource;
}): Promise<ContactRow> {
  const { tx, form, submitter } = opts;
  const projectId = form.projectId;
  const stored = normalizeEmail(opts.email);
  let row = (await findContactsByEmails({ db: tx, projectId, emails: [stored] })).get(stored);
  if (!row) {
    // A new contact, subscribed at once unless the form asks to confirm by email.
    const language = form.locale
      ? { locale: form.locale }
      : { fallbackLocale: acceptedLocales(submitter.acceptLanguage)[0] };
    const rows = [{ email: stored, id: newId(), defaultSubscribed: !form.doubleOptIn, patch: opts.data, ...language }];
    row = (await upsertContacts({ db: tx, projectId, rows, consent: opts.consent }))[0]!.contact;
  }
  const topicIds = [...(await lockTopics({ db: tx, projectId, ids: form.topicIds }))];
  // The form's topics chosen in, for a new or an existing contact.
  if (topicIds.length > 0)
    await chooseTopics({ db: tx, projectId, contactId: row.id, topicIds, consent: opts.consent });
  if (form.segmentId)
    await addSegmentMembers({ db: tx, projectId, id: form.segmentId, input: { contactIds: [row.id] } });
  const doubleOptIn = form.doubleOptIn && !row.subscribed;
  await repo.insertSubmission(tx, { id: newId(), formId: form.id, contactId: row.id, doubleOptIn });
  return row;
}

/**
 * Takes one submission of `form`. The honeypot filled: counted as spam and nothing else kept (the sender is told it
 * worked). Otherwise the fields and the proof of work are checked (422), and the contact, its topics and list, and
 * the submission are written in one transaction; the confirmation email follows when the form asks for one.
 */
export async function submitForm(opts: {
  ctx: AppContext;
  form: repo.FormRow;
  values: PostedValues;
  submitter: Submitter;
}): Promise<SubmitOutcome> {
  const { ctx, form, values, submitter } = opts;
  if (textOf(values[HONEYPOT_FIELD]) !== '') {
    await repo.countSpam(ctx.db, form.id);
    return { kind: 'spam' };
  }
  const { email, data } = readFields(form, values);
  const pow =
    form.captcha === 'pow' ? await checkSolution(powSecrets(ctx.secrets.appSecret), form.id, values[POW_FIELD]) : null;
  if (pow && !pow.ok) throw invalid([fieldError(POW_FIELD, 'pow_failed')]);
  if (form.doubleOptIn && !(await getProjectSettings({ db: ctx.db, projectId: form.projectId })).doubleOptIn)
    throw new AppError('CONFLICT', 'This form cannot take signups: double opt-in is not set up for its project');
  // What the person agreed to, with where it came from: the consent ledger records it with each change below.
  const consent: ConsentSource = {
    type: 'form',
    id: form.id,
    text: form.consentText,
    client: { ip: submitter.ip, userAgent: submitter.userAgent ?? null },
  };
  const contact = await ctx.db.transaction(async (tx) => {
    if (pow?.ok && !(await repo.useChallenge(tx, pow.signature, pow.expiresAt)))
      throw invalid([fieldError(POW_FIELD, 'pow_failed')]);
    return writeSubmission({ tx, form, email, data, submitter, consent });
  });
  const confirmationSent = form.doubleOptIn && !contact.subscribed;
  // Confirming the email's link subscribes the contact, recorded with this form as its source.
  if (confirmationSent) await requestConfirmation({ ctx, contact, consent });
  return { kind: 'accepted', confirmationSent };
}

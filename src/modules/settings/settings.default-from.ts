// The project's default sender as the API writes it ("Acme <hello@acme.com>" or an address alone) and as it is stored
// (the address and the display name apart).
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { parseAddress, storedForm } from '../../lib/email-address.ts';

/** A sender: its address (stored form) and its display name, if any. */
export interface DefaultSender {
  email: string;
  name: string | null;
}

const MAX_NAME_LENGTH = 200;
// `Name <address>` or `"Name" <address>`; anything else is read as an address alone.
const NAMED = /^\s*(?:"([^"]*)"|([^"<>]*?))\s*<([^<>]*)>\s*$/;
// eslint-disable-next-line no-control-regex
const LINE_BREAK_OR_NUL = /[\r\n\u0000]/;

/** The sender written `value`, or why it is not one. */
export function parseDefaultSender(value: string): DefaultSender | { problem: string } {
  if (LINE_BREAK_OR_NUL.test(value)) return { problem: 'must not contain CR, LF or NUL' };
  const named = NAMED.exec(value);
  const name = (named ? (named[1] ?? named[2] ?? '') : '').trim();
  const address = parseAddress(named ? named[3]! : value);
  if (!address.ok) return { problem: `Invalid email address: ${address.reason}` };
  if (name.length > MAX_NAME_LENGTH)
    return { problem: `the display name is longer than ${MAX_NAME_LENGTH} characters` };
  return { email: storedForm(address), name: name || null };
}

/**
 * The sender as the API shows it: `Name <address>` (the name quoted when it holds a character that means something in
 * an address, so it reads back the same), or the address alone.
 */
export function formatDefaultSender(sender: DefaultSender | null): string | null {
  if (!sender) return null;
  if (!sender.name) return sender.email;
  return /[<>()[\],;:@\\]/.test(sender.name)
    ? `"${sender.name}" <${sender.email}>`
    : `${sender.name} <${sender.email}>`;
}

export const defaultFromSchema = z
  .string()
  .max(600)
  .transform((value, check) => {
    const parsed = parseDefaultSender(value);
    if (!('problem' in parsed)) return parsed;
    check.addIssue({ code: 'custom', message: parsed.problem, params: { reason: 'invalid_sender' } });
    return z.NEVER;
  })
  .nullable()
  .meta({
    description:
      'The sender of a send that names none (no `from`, and no template sender): "Acme <hello@acme.com>" or an ' +
      'address alone, on a verified sender domain of the project (422 otherwise). null: such sends are refused (422).',
    example: 'Acme <hello@acme.com>',
  });

/** The 422 of a send or campaign with no sender anywhere: it tells how to give one, or set the project's default. */
export function noSender(): AppError {
  const message =
    "No sender: give `from`, use a template that has one, or set the project's default sender " +
    '(PATCH /settings {"defaultFrom": "Name <you@your-domain>"}, or Settings in the dashboard)';
  return new AppError('VALIDATION_ERROR', message, { errors: [{ field: 'from', message, code: 'required' }] });
}

// What the request log keeps of a body: compact JSON of at most 10 KB, secrets and attachment contents replaced,
// cut (still valid JSON) where the limit falls.
import { REDACTED } from '../audit/index.ts';

/** The most a stored body takes: its JSON text is cut to this many characters. */
export const BODY_LIMIT = 10 * 1024;

/** The most of one string kept, so the fields after a long one (an HTML body) are kept too. */
const STRING_LIMIT = 2048;

/** What a cut string ends with. */
export const CUT_MARK = '…[cut]';

/** Names whose values are credentials wherever they appear (compared lower-cased, without `_` and `-`). */
const SECRET_PARTS = ['password', 'passwd', 'secret', 'token', 'apikey', 'authorization', 'cookie', 'credential'];
const SECRET_NAMES = new Set([
  'key',
  'pass',
  'totp',
  'otpauthurl',
  'recoverycodes',
  'inviteurl',
  'seturl',
  'setupurl',
  'reseturl',
  'privatekey',
]);

/** Whether a field's value is a credential: passwords, secrets, tokens, keys (`key`, `apiKey`, `secretKey`…). */
export function isSecretName(name: string, opts: { twoFactor: boolean }): boolean {
  const flat = name.toLowerCase().replace(/[_-]/g, '');
  if (SECRET_NAMES.has(flat) || SECRET_PARTS.some((part) => flat.includes(part))) return true;
  if (/(Key|_key|-key|KEY)$/.test(name)) return true;
  return opts.twoFactor && flat === 'code';
}

/** The stored form of a body: its compact JSON (null for none), and whether anything of it was cut. */
export interface KeptBody {
  json: string | null;
  cut: boolean;
}

interface Writer {
  parts: string[];
  used: number;
  cut: boolean;
  /** A string was shortened (the walk goes on). */
  shortened: boolean;
  twoFactor: boolean;
}

/**
 * A body as the log keeps it: every value under a credential's name becomes "[redacted]" (at any depth), an
 * attachment's `content` "[attachment: N bytes]", and the JSON text stops at BODY_LIMIT characters with its open
 * strings, arrays and objects closed. Walks no further than the limit, so a 10 MB body costs no more than a small one.
 * `twoFactor`: the body belongs to a sign-in or two-factor route, where `code` is a one-time code.
 */
export function keepBody(value: unknown, opts: { twoFactor?: boolean } = {}): KeptBody {
  if (value === undefined || value === null) return { json: null, cut: false };
  const writer: Writer = { parts: [], used: 0, cut: false, shortened: false, twoFactor: opts.twoFactor ?? false };
  write(writer, value, 0, false);
  return { json: writer.parts.join(''), cut: writer.cut || writer.shortened };
}

/** Appends `text` if it fits beside `closers` characters still to come; false (and cut) when it does not. */
function put(w: Writer, text: string, closers: number): boolean {
  if (w.cut || w.used + text.length + closers > BODY_LIMIT) {
    w.cut = true;
    return false;
  }
  w.parts.push(text);
  w.used += text.length;
  return true;
}

function writeString(w: Writer, value: string, closers: number): void {
  const left = BODY_LIMIT - w.used - closers;
  const room = Math.min(left, STRING_LIMIT);
  const whole = value.length <= room ? JSON.stringify(value) : null;
  if (whole !== null && whole.length <= room) {
    put(w, whole, closers);
    return;
  }
  // Escapes only lengthen a string: halve what is kept until its JSON fits.
  let keep = Math.max(0, Math.min(value.length, room - CUT_MARK.length - 2));
  let text = JSON.stringify(value.slice(0, keep) + CUT_MARK);
  while (text.length > room && keep > 0) {
    keep = Math.floor(keep / 2);
    text = JSON.stringify(value.slice(0, keep) + CUT_MARK);
  }
  if (put(w, text, closers)) {
    if (room === left) w.cut = true;
    else w.shortened = true;
  }
}

function attachmentSize(content: unknown): string {
  if (typeof content === 'string')
    return `[attachment: ${Math.floor((content.replace(/=+$/, '').length * 3) / 4)} bytes]`;
  if (Array.isArray(content)) return `[attachment: ${content.length} bytes]`;
  return REDACTED;
}

/** An array's items (no name) or an object's own fields, one at a time: a walk cut short reads no further. */
function* entriesOf(value: object): Generator<[string | null, unknown]> {
  if (Array.isArray(value)) for (const item of value) yield [null, item];
  else for (const name in value) if (Object.hasOwn(value, name)) yield [name, (value as Record<string, unknown>)[name]];
}

/** Drops what was written since `mark` (a separator or key whose value did not fit). */
function revert(w: Writer, mark: { parts: number; used: number }): void {
  w.parts.length = mark.parts;
  w.used = mark.used;
}

function write(w: Writer, value: unknown, closers: number, inAttachment: boolean): void {
  if (w.cut) return;
  if (typeof value === 'string') return writeString(w, value, closers);
  if (value === null || typeof value !== 'object') {
    put(w, JSON.stringify(value) ?? 'null', closers);
    return;
  }
  if (value instanceof Date) return writeString(w, value.toISOString(), closers);
  const isArray = Array.isArray(value);
  if (!put(w, isArray ? '[' : '{', closers + 1)) return;
  let first = true;
  for (const [name, child] of entriesOf(value)) {
    if (child === undefined) continue;
    const mark = { parts: w.parts.length, used: w.used };
    const head = (first ? '' : ',') + (name === null ? '' : `${JSON.stringify(name)}:`);
    if (head && !put(w, head, closers + 1)) break;
    const written = w.parts.length;
    if (name !== null && inAttachment && name === 'content') writeString(w, attachmentSize(child), closers + 1);
    else if (name !== null && isSecretName(name, w)) writeString(w, REDACTED, closers + 1);
    else write(w, child, closers + 1, isArray ? inAttachment : name === 'attachments');
    if (w.parts.length === written) revert(w, mark);
    else first = false;
    if (w.cut) break;
  }
  // The closing bracket was reserved all along, so it always fits.
  w.parts.push(isArray ? ']' : '}');
  w.used += 1;
}

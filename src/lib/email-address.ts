// The one email address syntax of every endpoint (contacts, track, send, verify, templates, campaigns,
// suppressions…): what mailbox providers accept, internationalised domains (stored in their ASCII
// punycode form) and internationalised local parts (SMTPUTF8, RFC 6531).
import { domainToASCII, domainToUnicode } from 'node:url';
import { z } from 'zod';

/** An address that passed the syntax checks, with its domain in the ASCII (punycode) form DNS uses. */
export interface ParsedAddress {
  ok: true;
  /** The part before @, as given (Unicode NFC). */
  local: string;
  /** Lower-case ASCII domain, e.g. `xn--bcher-kva.example` for `bücher.example`. */
  domain: string;
  /** True for an internationalised domain (a label in punycode `xn--` form once converted). */
  isIdn: boolean;
  /** True when the local part has non-ASCII characters: delivery needs SMTPUTF8 (RFC 6531). */
  smtpUtf8: boolean;
  /** The `tag` of `user+tag`, or null when the address is not plus-addressed. */
  plusTag: string | null;
}

export interface SyntaxFailure {
  ok: false;
  reason: string;
}

export const MAX_ADDRESS_LENGTH = 254; // RFC 5321 §4.5.3.1.3 path limit minus the angle brackets
export const MAX_LOCAL_LENGTH = 64; // RFC 5321 §4.5.3.1.1, in octets (UTF-8 for SMTPUTF8 local parts)
export const MAX_DOMAIN_LENGTH = 253; // RFC 1035 255 octets on the wire = 253 characters of text
export const MAX_LABEL_LENGTH = 63; // RFC 1035 §2.3.4

// RFC 5322 atext, plus (RFC 6531) letters, marks and digits of any script; dot-atom = such runs joined by
// single dots. Other non-ASCII (spaces, symbols, invisible format characters) is refused, as providers do.
const ATOM = /^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[\p{L}\p{M}\p{N}])+$/u;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
// Characters the WHATWG host parser would silently rewrite or that can never be part of a domain.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_DOMAIN = /[\s\x00-\x1f\x7f%/\\:?#@[\]<>^|"(),;]/;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

const fail = (reason: string): SyntaxFailure => ({ ok: false, reason });

function checkLocalPart(local: string): string | null {
  if (local === '') return 'the part before @ is empty';
  if (local.startsWith('"') || local.endsWith('"')) return 'quoted local parts ("…"@domain) are not accepted';
  if (Buffer.byteLength(local, 'utf8') > MAX_LOCAL_LENGTH) {
    return `the part before @ is longer than ${MAX_LOCAL_LENGTH} characters`;
  }
  if (local.startsWith('.') || local.endsWith('.')) return 'the part before @ starts or ends with a dot';
  if (local.includes('..')) return 'the part before @ contains two dots in a row';
  if (!local.split('.').every((atom) => ATOM.test(atom))) {
    return 'the part before @ contains a character not allowed there';
  }
  return null;
}

function checkDomain(raw: string): { domain: string } | { reason: string } {
  if (raw === '') return { reason: 'the domain is empty' };
  if (raw.startsWith('[')) return { reason: 'IP address literals ([…]) are not accepted as a domain' };
  if (FORBIDDEN_IN_DOMAIN.test(raw)) return { reason: 'the domain contains a character not allowed there' };
  const domain = domainToASCII(raw);
  if (domain === '') return { reason: 'the domain is not a valid (internationalised) domain name' };
  if (domain.length > MAX_DOMAIN_LENGTH) return { reason: `the domain is longer than ${MAX_DOMAIN_LENGTH} characters` };
  const labels = domain.split('.');
  if (labels.some((label) => label === '')) {
    return { reason: 'the domain has an empty label (two dots, or a dot at an end)' };
  }
  if (labels.length < 2) return { reason: 'the domain has no top-level domain' };
  if (labels.some((label) => label.length > MAX_LABEL_LENGTH)) {
    return { reason: `a domain label is longer than ${MAX_LABEL_LENGTH} characters` };
  }
  if (!labels.every((label) => LABEL.test(label))) {
    return { reason: 'a domain label has a character other than letters, digits and inner hyphens' };
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1] ?? '')) return { reason: 'the top-level domain is numeric' };
  return { domain };
}

/** Why: one strict parse that matches what mailbox providers actually accept, before any DNS is spent. */
export function parseAddress(input: string): ParsedAddress | SyntaxFailure {
  const address = input.trim().normalize('NFC');
  if (address === '') return fail('the address is empty');
  const at = address.lastIndexOf('@');
  if (at === -1) return fail('the address has no @');
  const local = address.slice(0, at);
  const rawDomain = address.slice(at + 1);
  if (local.startsWith('"')) return fail('quoted local parts ("…"@domain) are not accepted');
  if (local.includes('@')) return fail('the address has more than one @');
  const localProblem = checkLocalPart(local);
  if (localProblem) return fail(localProblem);
  const checked = checkDomain(rawDomain);
  if ('reason' in checked) return fail(checked.reason);
  if (Buffer.byteLength(local, 'utf8') + 1 + checked.domain.length > MAX_ADDRESS_LENGTH) {
    return fail(`the address is longer than ${MAX_ADDRESS_LENGTH} characters`);
  }
  const plus = local.indexOf('+');
  return {
    ok: true,
    local,
    domain: checked.domain,
    isIdn: checked.domain.split('.').some((label) => label.startsWith('xn--')),
    smtpUtf8: NON_ASCII.test(local),
    plusTag: plus > 0 ? local.slice(plus + 1) : null,
  };
}

/** The stored form of a valid address: lower-cased, Unicode NFC, the domain in ASCII (punycode). */
export function storedForm(parsed: ParsedAddress): string {
  return `${parsed.local.toLowerCase()}@${parsed.domain}`;
}

/**
 * How every path stores and looks up an address: the stored form when it is valid, else just trimmed and
 * lower-cased (a lookup of something invalid then simply finds nothing).
 */
export function normalizeEmail(input: string): string {
  const parsed = parseAddress(input);
  return parsed.ok ? storedForm(parsed) : input.trim().toLowerCase();
}

/** A stored address as people write it: its domain in Unicode (`user@bücher.example`). */
export function unicodeEmail(stored: string): string {
  const at = stored.lastIndexOf('@');
  if (at === -1) return stored;
  const domain = domainToUnicode(stored.slice(at + 1));
  return domain ? `${stored.slice(0, at)}@${domain}` : stored;
}

/**
 * The forms a lower-cased search text can take in stored addresses: itself, and (when it holds non-ASCII
 * characters) with its domain part, or the whole text as a domain, in punycode. So `bücher.example`, `bücher`
 * or `ann@bücher.example` find `ann@xn--bcher-kva.example`.
 */
export function addressSearchForms(text: string): string[] {
  const forms = [text];
  if (!NON_ASCII.test(text)) return forms;
  const at = text.lastIndexOf('@');
  const domain = text.slice(at + 1);
  const ascii = domain ? domainToASCII(domain.normalize('NFC')) : '';
  if (ascii && ascii !== domain) forms.push(`${text.slice(0, at + 1)}${ascii}`);
  return forms;
}

/** True when an address needs SMTPUTF8 to be delivered (a non-ASCII local part). */
export function needsSmtpUtf8(address: string): boolean {
  const at = address.lastIndexOf('@');
  return NON_ASCII.test(at === -1 ? address : address.slice(0, at));
}

/**
 * An email address field: any input the syntax accepts, answered as its stored form (a 422 naming the
 * field and the reason otherwise).
 */
export const emailAddressSchema = z
  .string()
  .max(MAX_ADDRESS_LENGTH * 4)
  .transform((value, check) => {
    const parsed = parseAddress(value);
    if (parsed.ok) return storedForm(parsed);
    check.addIssue({
      code: 'custom',
      message: `Invalid email address: ${parsed.reason}`,
      params: { reason: 'invalid_email' },
    });
    return z.NEVER;
  })
  .meta({
    format: 'idn-email',
    description:
      'An email address; internationalised domains and local parts are accepted. Stored ' +
      'lower-cased, its domain in punycode.',
  });

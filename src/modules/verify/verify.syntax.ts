import { domainToASCII } from 'node:url';

/** An address that passed the syntax checks, with its domain in the ASCII (punycode) form DNS uses. */
export interface ParsedAddress {
  ok: true;
  local: string;
  /** Lower-case ASCII domain, e.g. `xn--bcher-kva.example` for `bücher.example`. */
  domain: string;
  /** True for an internationalised domain (a label in punycode `xn--` form once converted). */
  isIdn: boolean;
  /** The `tag` of `user+tag`, or null when the address is not plus-addressed. */
  plusTag: string | null;
}

export interface SyntaxFailure {
  ok: false;
  reason: string;
}

export const MAX_ADDRESS_LENGTH = 254; // RFC 5321 §4.5.3.1.3 path limit minus the angle brackets
export const MAX_LOCAL_LENGTH = 64; // RFC 5321 §4.5.3.1.1
export const MAX_DOMAIN_LENGTH = 253; // RFC 1035 255 octets on the wire = 253 characters of text
export const MAX_LABEL_LENGTH = 63; // RFC 1035 §2.3.4

// RFC 5322 atext; dot-atom = atext runs joined by single dots.
const ATEXT = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
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
  if (NON_ASCII.test(local)) return 'non-ASCII characters before @ are not accepted';
  if (local.startsWith('.') || local.endsWith('.')) return 'the part before @ starts or ends with a dot';
  if (local.includes('..')) return 'the part before @ contains two dots in a row';
  if (!local.split('.').every((atom) => ATEXT.test(atom))) {
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
  const address = input.trim();
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
  if (local.length + 1 + checked.domain.length > MAX_ADDRESS_LENGTH) {
    return fail(`the address is longer than ${MAX_ADDRESS_LENGTH} characters`);
  }
  const plus = local.indexOf('+');
  return {
    ok: true,
    local,
    domain: checked.domain,
    isIdn: checked.domain.split('.').some((label) => label.startsWith('xn--')),
    plusTag: plus > 0 ? local.slice(plus + 1) : null,
  };
}

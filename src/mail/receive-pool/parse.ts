// A received message read into the parts an inbound record keeps (mailparser), each bounded: the text and HTML
// at 1 MB each, the subject, addresses, references and headers at sizes no real message reaches. The raw message
// keeps everything. Everything is made storable: PostgreSQL refuses NUL in text and lone UTF-16 surrogates in
// jsonb, and a message may carry either.
import type { AddressObject, EmailAddress } from 'mailparser';
import type { InboundAddress } from '../../db/schema/inbound.ts';

/** Bytes (UTF-8) of the text and of the HTML kept; the raw message holds the rest. */
export const MAX_BODY_BYTES = 1024 * 1024;
const MAX_SUBJECT = 2000;
const MAX_ADDRESSES = 500;
const MAX_REFERENCES = 100;
const MAX_ID = 998;
/** Header bytes kept in all (names and values); the headers after them are left to the raw message. */
const MAX_HEADER_BYTES = 256 * 1024;
const MAX_HEADER_VALUE = 64 * 1024;

export interface ParsedAttachment {
  filename: string | null;
  contentType: string;
  size: number;
  contentId: string | null;
  content: Uint8Array;
}

export interface ParsedMessage {
  from: InboundAddress;
  to: InboundAddress[];
  cc: InboundAddress[];
  subject: string;
  text: string | null;
  html: string | null;
  /** The text or HTML was longer than MAX_BODY_BYTES and is cut there. */
  truncated: { text: boolean; html: boolean };
  /** `[name, value]` in order: lower-case names, unfolded values (a plain object could not hold `__proto__`). */
  headers: [string, string][];
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  attachments: ParsedAttachment[];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A string PostgreSQL stores as text and jsonb: no NUL, no lone surrogate. */
function storable(value: string): string {
  return value.replace(/\0/g, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}

/** `value` cut to at most `maxBytes` of UTF-8 at a character boundary. */
export function capBytes(value: string, maxBytes: number): { value: string; truncated: boolean } {
  if (value.length <= maxBytes / 3 || Buffer.byteLength(value) <= maxBytes) return { value, truncated: false };
  const cut = Buffer.from(value.slice(0, maxBytes)).subarray(0, maxBytes).toString();
  return { value: cut.endsWith('\uFFFD') ? cut.slice(0, -1) : cut, truncated: true };
}

const capped = (value: string, max: number) => storable(value.length > max ? value.slice(0, max) : value);
const optional = (value: string | undefined | false, max = MAX_ID): string | null =>
  value ? capped(value, max) : null;

function flatten(list: EmailAddress[]): EmailAddress[] {
  return list.flatMap((a) => (a.group ? flatten(a.group) : [a]));
}

function addresses(value: AddressObject | AddressObject[] | undefined): InboundAddress[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return flatten(objects.flatMap((o) => o.value))
    .filter((a) => a.address)
    .slice(0, MAX_ADDRESSES)
    .map((a) => ({ email: capped(a.address!.toLowerCase(), 320), name: capped(a.name ?? '', 320) }));
}

/**
 * The header lines: lower-case names, unfolded values, repeated headers joined by a newline, MAX_HEADER_BYTES in
 * all.
 */
function headerPairs(lines: readonly { key: string; line: string }[]): [string, string][] {
  const headers = new Map<string, string>();
  let bytes = 0;
  for (const { key, line } of lines) {
    const name = capped(key.toLowerCase(), 998);
    const value = capped(
      line
        .slice(line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
      MAX_HEADER_VALUE,
    );
    bytes += name.length + value.length;
    if (bytes > MAX_HEADER_BYTES) break;
    const earlier = headers.get(name);
    headers.set(name, earlier === undefined ? value : `${earlier}\n${value}`);
  }
  return [...headers];
}

/** Reads a message; `mailFrom` stands in for a missing or unreadable From header. */
export async function parseMessage(raw: Buffer, mailFrom: string): Promise<ParsedMessage> {
  const { simpleParser } = await import('mailparser');
  // HTML is turned into text below, from the capped HTML only: mailparser would convert all of it.
  const parsed = await simpleParser(raw, {
    keepCidLinks: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
  });
  const from = addresses(parsed.from)[0] ?? { email: capped(mailFrom.toLowerCase(), 320), name: '' };
  const references =
    parsed.references === undefined ? [] : Array.isArray(parsed.references) ? parsed.references : [parsed.references];
  const html = parsed.html ? capBytes(parsed.html, MAX_BODY_BYTES) : null;
  let text = parsed.text ? capBytes(parsed.text, MAX_BODY_BYTES) : null;
  if (!text && html) {
    const { convert } = await import('html-to-text');
    text = capBytes(convert(html.value, { wordwrap: false }), MAX_BODY_BYTES);
  }
  return {
    from,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    subject: capped(parsed.subject ?? '', MAX_SUBJECT),
    text: text ? storable(text.value) : null,
    html: html ? storable(html.value) : null,
    truncated: { text: Boolean(parsed.text && text?.truncated), html: html?.truncated ?? false },
    headers: headerPairs(parsed.headerLines),
    messageId: optional(parsed.messageId),
    inReplyTo: optional(parsed.inReplyTo),
    references: references.slice(0, MAX_REFERENCES).map((r) => capped(r, MAX_ID)),
    attachments: parsed.attachments.map((a) => ({
      filename: optional(a.filename, 255),
      contentType: capped(a.contentType || 'application/octet-stream', 255),
      size: a.content.length,
      contentId: optional(a.cid),
      content: a.content,
    })),
  };
}

// A received message read into the inbound record's parts (mailparser). Everything is made storable: PostgreSQL
// refuses NUL in text and lone UTF-16 surrogates in jsonb, and a message may carry either.
import type { AddressObject, EmailAddress } from 'mailparser';
import type { InboundAddress } from '../../db/schema/inbound.ts';

export interface ParsedInbound {
  from: InboundAddress;
  to: InboundAddress[];
  cc: InboundAddress[];
  subject: string;
  text: string | null;
  html: string | null;
  headers: Record<string, string>;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  attachments: { filename: string | null; contentType: string; size: number; contentId: string | null; content: Buffer }[];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A string PostgreSQL stores as text and jsonb: no NUL, no lone surrogate. */
export function storable(value: string): string {
  return value.replace(/\0/g, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}

const optional = (value: string | undefined | false): string | null => (value ? storable(value) : null);

function flatten(list: EmailAddress[]): EmailAddress[] {
  return list.flatMap((a) => (a.group ? flatten(a.group) : [a]));
}

function addresses(value: AddressObject | AddressObject[] | undefined): InboundAddress[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return flatten(objects.flatMap((o) => o.value)).filter((a) => a.address)
    .map((a) => ({ email: storable(a.address!.toLowerCase()), name: storable(a.name ?? '') }));
}

/** The header lines as `{name: value}`: lower-case names, unfolded values, repeated headers joined by a newline. */
function headerMap(lines: readonly { key: string; line: string }[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { key, line } of lines) {
    const name = storable(key.toLowerCase());
    const value = storable(line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim());
    headers[name] = name in headers ? `${headers[name]}\n${value}` : value;
  }
  return headers;
}

/** Reads a message; `mailFrom` stands in for a missing or unreadable From header. */
export async function parseInbound(raw: Buffer, mailFrom: string): Promise<ParsedInbound> {
  const { simpleParser } = await import('mailparser'); // loaded on first use: large, and only mail in needs it
  const parsed = await simpleParser(raw, { keepCidLinks: true, skipTextToHtml: true, skipTextLinks: true });
  const from = addresses(parsed.from)[0] ?? { email: storable(mailFrom.toLowerCase()), name: '' };
  const references = parsed.references === undefined ? [] : Array.isArray(parsed.references) ? parsed.references : [parsed.references];
  return {
    from,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    subject: storable(parsed.subject ?? ''),
    text: optional(parsed.text),
    html: optional(parsed.html),
    headers: headerMap(parsed.headerLines),
    messageId: optional(parsed.messageId),
    inReplyTo: optional(parsed.inReplyTo),
    references: references.map(storable),
    attachments: parsed.attachments.map((a) => ({
      filename: optional(a.filename),
      contentType: storable(a.contentType || 'application/octet-stream'),
      size: a.content.length,
      contentId: optional(a.cid),
      content: a.content,
    })),
  };
}

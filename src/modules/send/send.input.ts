import { validationError } from '../../lib/errors.ts';
import { findHeaderProblem, sanitizeFilename } from '../../mail/headers.ts';
import { MAX_ATTACHMENT_BYTES, type SendBody } from './send.schemas.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface Recipient {
  email: string;
  name: string | undefined;
}

/** Recipients as a list, one per address (a repeated address is sent once). */
export function recipientsOf(to: SendBody['to'] | undefined): Recipient[] {
  const list = to === undefined ? [] : Array.isArray(to) ? to : [to];
  const seen = new Map<string, Recipient>();
  for (const item of list) {
    const r = typeof item === 'string' ? { email: item, name: undefined } : { email: item.email, name: item.name };
    if (!seen.has(r.email)) seen.set(r.email, r);
  }
  return [...seen.values()];
}

/** Custom headers after the injection and reserved-name rules (422 naming the header). */
export function checkedHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  for (const [name, value] of Object.entries(headers)) {
    const problem = findHeaderProblem(name, value);
    if (problem)
      throw validationError(`headers.${name}`, `Header ${JSON.stringify(name)}: ${problem}`, 'invalid_header');
  }
  return Object.keys(headers).length ? headers : undefined;
}

export interface DecodedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  cid: string | null;
}

/** Decodes base64 attachments, enforcing the 10 MB total; filenames reduced to a safe base name. */
export function decodedAttachments(items: SendBody['attachments']): DecodedAttachment[] {
  let total = 0;
  return (items ?? []).map((item, i) => {
    const content = item.content.replace(/\s+/g, '');
    if (content.length % 4 !== 0 || !BASE64.test(content)) {
      throw validationError(`attachments.${i}.content`, 'Attachment content must be base64', 'invalid_base64');
    }
    const buffer = Buffer.from(content, 'base64');
    total += buffer.length;
    if (total > MAX_ATTACHMENT_BYTES) {
      throw validationError('attachments', 'Attachments may total at most 10 MB', 'too_big');
    }
    return {
      filename: sanitizeFilename(item.filename, i),
      contentType: item.contentType ?? 'application/octet-stream',
      content: buffer,
      cid: item.contentId ?? null,
    };
  });
}

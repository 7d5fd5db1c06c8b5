// The header section of a message as a client wrote it, field by field, without decoding or re-folding anything:
// the SMTP relay reads and removes a few fields and sends the rest byte for byte.

export interface HeaderField {
  /** Lower-cased field name. */
  name: string;
  /** The whole field as written, folded lines included, without its final CRLF. */
  raw: string;
}

export interface SplitMessage {
  fields: HeaderField[];
  /** Everything after the blank line, CRLF line ends. */
  body: Buffer;
}

/** Lines end in CRLF: a bare LF (or CR) from a careless client becomes CRLF, so signing and SMTP see one form. */
export function withCrlf(message: Uint8Array): Buffer {
  return Buffer.from(
    Buffer.from(message)
      .toString('latin1')
      .replace(/\r\n|\r|\n/g, '\r\n'),
    'latin1',
  );
}

/** Splits a CRLF message into its header fields and body; a message without a blank line is all header. */
export function splitMessage(message: Buffer): SplitMessage {
  const text = message.toString('latin1');
  const end = text.startsWith('\r\n') ? 0 : text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? Buffer.alloc(0) : message.subarray(end + (end === 0 ? 2 : 4));
  const fields: HeaderField[] = [];
  for (const line of head.length > 0 ? head.split('\r\n') : []) {
    const last = fields[fields.length - 1];
    if (/^[ \t]/.test(line) && last) {
      last.raw += `\r\n${line}`;
      continue;
    }
    const colon = line.indexOf(':');
    fields.push({ name: (colon === -1 ? line : line.slice(0, colon)).trim().toLowerCase(), raw: line });
  }
  return { fields, body };
}

/** A field's value, unfolded and trimmed. */
export function fieldValue(field: HeaderField): string {
  return field.raw
    .slice(field.raw.indexOf(':') + 1)
    .replace(/\r\n[ \t]/g, ' ')
    .trim();
}

/** Joins fields and body back into a message. */
export function joinMessage(fields: HeaderField[], body: Buffer): Buffer {
  const head = fields.map((f) => `${f.raw}\r\n`).join('');
  return Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]);
}

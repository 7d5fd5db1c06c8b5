// nodemailer's MIME composition and DKIM signing run synchronously. nodemailer builds a message by piping every part
// through transform streams (the transfer encoders, the line-ending and last-newline fixes, the DKIM body hash), with a
// tick between parts; for a message held in memory that machinery costs more than the work itself. Here the same
// nodemailer objects do the same work — its MIME tree and header code, its encoders' and hashers' own transform
// functions, its DKIM `sign` — called directly on the whole buffer, so the bytes are exactly what its streams produce
// (checked against them, byte for byte, by the tests).
import type { Transform } from 'node:stream';
import { createHash, type KeyObject } from 'node:crypto';
import type MimeNode from 'nodemailer/lib/mime-node';
import { Encoder as Base64Encoder } from 'nodemailer/lib/base64';
import { Encoder as QpEncoder } from 'nodemailer/lib/qp';
import MessageParser from 'nodemailer/lib/dkim/message-parser';
import RelaxedBody from 'nodemailer/lib/dkim/relaxed-body';
import sign from 'nodemailer/lib/dkim/sign';

/** A transform stream's own transform and flush run over one buffer, without the stream around them. */
function transformAll(transform: Transform, input: Buffer | string): Buffer {
  const out: Buffer[] = [];
  let failure: Error | null = null;
  const done = (error?: Error | null) => {
    if (error) failure = error;
  };
  transform.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk !== null && chunk !== undefined)
      out.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, encoding ?? 'utf8'));
    return true;
  };
  const chunk = typeof input === 'string' ? Buffer.from(input) : input;
  // A Buffer chunk's encoding is 'buffer', a value BufferEncoding does not name.
  if (chunk.length > 0) transform._transform(chunk, 'buffer' as BufferEncoding, done);
  if (transform._flush) transform._flush(done);
  if (failure) throw failure;
  return Buffer.concat(out);
}

/** A node's content as bytes: only a string or a buffer (never a stream, file or URL). */
function contentBytes(node: MimeNode): Buffer | null {
  const content = node.content;
  if (content === undefined || content === null || content === '') return null;
  if (typeof content === 'string') return Buffer.from(content);
  if (Buffer.isBuffer(content)) return content;
  if (content instanceof Error) throw content;
  throw new Error('only string or buffer content can be composed synchronously');
}

/** One node of the tree and its children, as MimeNode.stream writes them. */
function writeNode(node: MimeNode, out: Buffer[]): void {
  const encoding = node.getTransferEncoding();
  // buildHeaders asks again, and each answer scans a text part's whole content: the content does not change between.
  node.getTransferEncoding = () => encoding;
  // Written as a string to a stream, so as UTF-8: an internationalised address stays UTF-8 (SMTPUTF8).
  out.push(Buffer.from(`${node.buildHeaders()}\r\n\r\n`));
  const content = contentBytes(node);
  if (content) {
    if (encoding === 'base64') out.push(transformAll(new Base64Encoder(), content));
    else if (encoding === 'quoted-printable')
      out.push(transformAll(new QpEncoder({ binary: !/^text\//i.test(node.contentType ?? '') }), content));
    else out.push(content);
  }
  if (!node.multipart) return;
  node.childNodes.forEach((child, i) => {
    out.push(Buffer.from(`${i > 0 ? '\r\n' : ''}--${String(node.boundary)}\r\n`, 'latin1'));
    writeNode(child, out);
  });
  out.push(Buffer.from(`\r\n--${String(node.boundary)}--\r\n`, 'latin1'));
}

const CRLF = Buffer.from('\r\n');
const LF = Buffer.from('\n');

/** LastNewline's bytes: the message ends with a line break (CR gains its LF, anything else a CRLF). */
function withLastNewline(message: Buffer): Buffer {
  const last = message.length ? message[message.length - 1] : -1;
  if (last === 0x0a) return message;
  return Buffer.concat([message, last === 0x0d ? LF : CRLF]);
}

/**
 * LeWindows's bytes: every LF not preceded by a CR becomes CRLF. The parts are already CRLF, so this looks only at
 * each LF (found natively) instead of at every byte.
 */
export function toCrlf(message: Buffer): Buffer {
  let parts: Buffer[] | null = null;
  let last = 0;
  for (let at = message.indexOf(0x0a); at !== -1; at = message.indexOf(0x0a, at + 1)) {
    if (at > 0 && message[at - 1] === 0x0d) continue;
    (parts ??= []).push(message.subarray(last, at), CRLF);
    last = at + 1;
  }
  if (!parts) return message;
  parts.push(message.subarray(last));
  return Buffer.concat(parts);
}

/** The message of a compiled MailComposer tree (`newline: 'win'`), the bytes `root.build()` gives. */
export function buildMessageSync(root: MimeNode): Buffer {
  const parts: Buffer[] = [];
  writeNode(root, parts);
  return toCrlf(withLastNewline(Buffer.concat(parts)));
}

/** A CR not followed by LF, or an LF not preceded by CR. */
const BARE_LINE_END = /\r(?!\n)|(?<!\r)\n/;

/**
 * The relaxed body hash (RFC 6376 3.4.4), as nodemailer's RelaxedBody computes it byte by byte: whitespace at the end
 * of a line dropped, runs of spaces and tabs inside a line made one space, empty lines at the end dropped, and a
 * non-empty body ending with CRLF. A body whose lines all end in CRLF (every message built here) is canonicalised a
 * line at a time with native string operations; any other goes through RelaxedBody itself.
 */
export function relaxedBodyHash(body: Buffer): string {
  const text = body.toString('latin1');
  if (BARE_LINE_END.test(text)) {
    const relaxed = new RelaxedBody({ hashAlgo: 'sha256' });
    let hash = '';
    relaxed.once('hash', (value: string) => (hash = value));
    transformAll(relaxed, body);
    return hash;
  }
  const lines = text.split('\r\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.includes('\t') || line.includes('  ')) line = line.replace(/[ \t]+/g, ' ');
    if (line.endsWith(' ')) line = line.slice(0, -1);
    lines[i] = line;
  }
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  const hash = createHash('sha256');
  if (end > 0) hash.update(`${lines.slice(0, end).join('\r\n')}\r\n`, 'latin1');
  return hash.digest('base64');
}

export interface DkimSignOptions {
  domainName: string;
  keySelector: string;
  privateKey: KeyObject;
  headerFieldNames: string;
}

/** The message with its DKIM-Signature field first (relaxed/relaxed, rsa-sha256), or null when signing failed. */
export function dkimSignSync(message: Buffer, options: DkimSignOptions): Buffer | null {
  const parser = new MessageParser();
  let headers: MessageParser.Header[] = [];
  parser.once('headers', (value: MessageParser.Header[]) => (headers = value));
  const body = transformAll(parser, message);
  const field = sign(headers, 'sha256', relaxedBodyHash(body), options);
  if (!field || !parser.rawHeaders) return null;
  return Buffer.concat([Buffer.from(`${field}\r\n`, 'latin1'), parser.rawHeaders, body]);
}

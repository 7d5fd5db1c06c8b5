/**
 * Large received messages for inbound tests and benches: a text part, the same as HTML, and one attachment making
 * up the rest, as a raw RFC 5322 message.
 *
 *   const MB = 1024 * 1024;
 *   const raw = bigMessage({ bytes: 20 * MB, textBytes: MB, from: 'a@sender.test', to: 'b@inbox.test' });
 */
import { randomBytes } from 'node:crypto';

export interface BigMessageOptions {
  /** About this many bytes in all. */
  bytes: number;
  /** Bytes of the text part (the HTML part is as long). */
  textBytes: number;
  from: string;
  to: string;
  subject?: string;
}

const wrap = (text: string) => text.replace(/.{76}/g, '$&\r\n');

export function bigMessage(opts: BigMessageOptions): Buffer {
  const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '
    .repeat(Math.ceil(opts.textBytes / 57))
    .slice(0, opts.textBytes);
  // base64 adds a third, and the line breaks a little more: the attachment's bytes before encoding.
  const attachmentBytes = Math.max(0, Math.floor(((opts.bytes - opts.textBytes * 2.1) * 3) / 4 / 1.03));
  return Buffer.from(
    [
      `From: ${opts.from}`,
      `To: ${opts.to}`,
      `Subject: ${opts.subject ?? 'A big message'}`,
      `Message-ID: <${randomBytes(8).toString('hex')}@big.test>`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: multipart/alternative; boundary="b2"',
      '',
      '--b2',
      'Content-Type: text/plain; charset=utf-8',
      '',
      wrap(text),
      '--b2',
      'Content-Type: text/html; charset=utf-8',
      '',
      wrap(`<p>${text}</p>`),
      '--b2--',
      '--b1',
      'Content-Type: application/octet-stream; name="data.bin"',
      'Content-Transfer-Encoding: base64',
      '',
      wrap(randomBytes(attachmentBytes).toString('base64')),
      '--b1--',
      '',
    ].join('\r\n'),
  );
}

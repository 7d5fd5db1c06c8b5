// Connections per client address at an SMTP listener: smtp-server bounds the total (maxClients) but not what one
// address holds, so one host could otherwise take every slot and shut the others out.
import type { SMTPServerSession } from 'smtp-server';

/** Typographic characters an SMTP reply spells in ASCII instead. */
const ASCII_SPELLING: Record<string, string> = {
  '\u2026': '...',
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u00a0': ' ',
};

/**
 * An SMTP reply's text in printable ASCII (RFC 5321 replies are ASCII; a client may show anything else as
 * mojibake): typographic characters spelled in ASCII, line breaks and other controls as spaces (one reply line,
 * nothing a client could take for another reply), anything else as `?`.
 */
export function asciiReply(text: string): string {
  return text.replace(/[^\x20-\x7e]/gu, (char) => ASCII_SPELLING[char] ?? (/[\p{Cc}\p{Zs}]/u.test(char) ? ' ' : '?'));
}

/** An error an smtp-server handler calls back with: smtp-server answers `code message`, its text in ASCII. */
export function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(asciiReply(message)), { responseCode: code });
}

/** An answer chosen by a handler (it carries an SMTP code), as opposed to a failure. */
export const isSmtpAnswer = (error: unknown): error is Error & { responseCode: number } =>
  error instanceof Error && typeof (error as { responseCode?: unknown }).responseCode === 'number';

/** Counts open connections per remote address; a connection over the limit is not counted (it is refused). */
export class ConnectionCounter {
  private readonly byAddress = new Map<string, number>();
  /** Sessions counted, by id: smtp-server calls onClose for refused and early-closed connections too. */
  private readonly counted = new Map<string, string>();

  constructor(private readonly limit: number) {}

  /** Counts the session's connection; false (and not counted) when its address already holds `limit`. */
  open(session: SMTPServerSession): boolean {
    const address = session.remoteAddress;
    const current = this.byAddress.get(address) ?? 0;
    if (current >= this.limit) return false;
    this.byAddress.set(address, current + 1);
    this.counted.set(session.id, address);
    return true;
  }

  /** Releases a counted connection's slot; nothing for one that was refused or never reached onConnect. */
  close(session: SMTPServerSession): void {
    const address = this.counted.get(session.id);
    if (address === undefined) return;
    this.counted.delete(session.id);
    const left = (this.byAddress.get(address) ?? 1) - 1;
    if (left > 0) this.byAddress.set(address, left);
    else this.byAddress.delete(address);
  }
}

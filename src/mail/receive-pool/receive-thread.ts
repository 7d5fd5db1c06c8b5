// What a receive thread does with one received message: reads it into the record's parts and authenticates it,
// off the event loop and inside the thread's own heap limit, so a hostile message can slow or break a thread,
// never the process.
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { authenticateMessage, mailauthResolver, type AuthVerdicts } from './authenticate.ts';
import { parseMessage, type ParsedMessage } from './parse.ts';
import { readReports, type ReportsRead } from './report-files.ts';

export interface ReceiveTask {
  /** The message as received, in pieces. */
  pieces: Uint8Array[];
  /** MAIL FROM ('' for a null sender). */
  mailFrom: string;
  remoteAddress: string;
  helo: string;
  /** This server's name, as SPF's macros see it. */
  mta: string;
  dnsServers: readonly string[];
  /** Time the authentication checks get before their verdicts are `temperror`. */
  authDeadlineMs: number;
  /** The message is report mail: its attachments (or body) are read as DMARC and TLS reports too. */
  reports?: boolean;
}

export type ReceiveResult =
  | { ok: true; parsed: ParsedMessage; authentication: AuthVerdicts; reports?: ReportsRead }
  /** The message could not be read as a message at all. */
  | { ok: false; error: string };

/** Bytes that own their whole buffer can be moved to another thread; a slice of a shared pool is copied first. */
const movable = (bytes: Uint8Array) =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);

/** Parses and authenticates one message. */
export async function readReceived(task: ReceiveTask): Promise<ReceiveResult> {
  const raw = Buffer.concat(task.pieces);
  task.pieces.length = 0;
  let parsed: ParsedMessage;
  try {
    parsed = await parseMessage(raw, task.mailFrom);
  } catch (error) {
    return { ok: false, error: (error as Error).message.slice(0, 200) };
  }
  const authentication = await authenticateMessage({
    raw,
    ip: task.remoteAddress,
    helo: task.helo,
    mailFrom: task.mailFrom,
    mta: task.mta,
    resolver: mailauthResolver(task.dnsServers),
    deadlineMs: task.authDeadlineMs,
  });
  if (!task.reports) return { ok: true, parsed, authentication };
  const files =
    parsed.attachments.length > 0 ? parsed.attachments.map((a) => a.content) : [Buffer.from(parsed.text ?? '')];
  return { ok: true, parsed, authentication, reports: await readReports(files) };
}

/** The pool's entry: the result with the attachments' bytes moved, not copied, to the caller's thread. */
export default async function readReceivedMoving(task: ReceiveTask) {
  const result = await readReceived(task);
  if (!result.ok) return result;
  for (const attachment of result.parsed.attachments) attachment.content = movable(attachment.content);
  return move({
    [transferableSymbol]: result.parsed.attachments.map((a) => a.content.buffer),
    [valueSymbol]: result,
  }) as unknown as ReceiveResult;
}

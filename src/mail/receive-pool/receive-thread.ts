// What a receive thread does with one received message: reads it into the record's parts and authenticates it,
// off the event loop and inside the thread's own heap limit, so a hostile message can slow or break a thread,
// never the process.
import { authenticateMessage, mailauthResolver, type AuthVerdicts } from './authenticate.ts';
import { parseMessage, type ParsedMessage } from './parse.ts';

export interface ReceiveTask {
  raw: Uint8Array;
  /** MAIL FROM ('' for a null sender). */
  mailFrom: string;
  remoteAddress: string;
  helo: string;
  /** This server's name, as SPF's macros see it. */
  mta: string;
  dnsServers: readonly string[];
  /** Time the authentication checks get before their verdicts are `temperror`. */
  authDeadlineMs: number;
}

export type ReceiveResult =
  | { ok: true; parsed: ParsedMessage; authentication: AuthVerdicts }
  /** The message could not be read as a message at all. */
  | { ok: false; error: string };

/** Parses and authenticates one message (the pool calls the default export). */
export async function readReceived(task: ReceiveTask): Promise<ReceiveResult> {
  const raw = Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
  let parsed: ParsedMessage;
  try {
    parsed = await parseMessage(raw, task.mailFrom);
  } catch (error) {
    return { ok: false, error: (error as Error).message.slice(0, 200) };
  }
  const authentication = await authenticateMessage({
    raw, ip: task.remoteAddress, helo: task.helo, mailFrom: task.mailFrom, mta: task.mta,
    resolver: mailauthResolver(task.dnsServers), deadlineMs: task.authDeadlineMs,
  });
  return { ok: true, parsed, authentication };
}

export default readReceived;

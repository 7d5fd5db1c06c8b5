// Reading a message at DATA, for every SMTP listener: the bytes are held as they arrive only while they fit in the
// listener's budget of bytes in flight (shared by all its sessions) and under the message size limit. Past either,
// the rest is drained and dropped, never held, so a hundred clients sending their largest message at once cannot
// take more memory than the budget. The message is kept as pieces of a fixed size, never copied into one buffer.
import type { Logger } from 'pino';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import type { WeightedSemaphore } from '../lib/weighted-semaphore.ts';
import { loggableError } from '../lib/loggable-error.ts';
import { asciiReply, isSmtpAnswer, smtpError } from './smtp-connections.ts';
import type { SessionGuard } from './smtp-session-limits.ts';

/** Bytes per piece of a received message (the last one may be shorter). */
export const PIECE_BYTES = 256 * 1024;

export type Intake =
  /** The whole message in pieces; its bytes stay counted in the budget until release(). */
  | { kind: 'message'; pieces: Buffer[]; size: number; release(): void }
  /** Over `maxBytes` (or over the SIZE smtp-server enforces): answer 552. */
  | { kind: 'too-big' }
  /** The budget was spent by other sessions' messages: answer 451 4.3.1, the client tries later. */
  | { kind: 'busy' };

export const BUSY_ANSWER = '4.3.1 Too much mail is arriving right now, try again later';

/**
 * Pieces of PIECE_BYTES, each a buffer of its own (never a slice of a socket read or of Node's shared pool), so
 * handing one to a thread copies just its bytes.
 */
class Pieces {
  readonly list: Buffer[] = [];
  private filled = PIECE_BYTES;

  append(chunk: Buffer): void {
    for (let offset = 0; offset < chunk.length; ) {
      if (this.filled === PIECE_BYTES) {
        this.list.push(Buffer.allocUnsafeSlow(PIECE_BYTES));
        this.filled = 0;
      }
      const copied = chunk.copy(this.list[this.list.length - 1]!, this.filled, offset);
      this.filled += copied;
      offset += copied;
    }
  }

  /** The pieces, the last one cut to what it holds. */
  done(): Buffer[] {
    if (this.list.length > 0)
      this.list[this.list.length - 1] = this.list[this.list.length - 1]!.subarray(0, this.filled);
    return this.list;
  }
}

/** Reads the message of `stream` up to `maxBytes`, holding its bytes in `budget` (see Intake). */
export async function readMessage(
  stream: SMTPServerDataStream,
  opts: { maxBytes: number; budget: WeightedSemaphore },
): Promise<Intake> {
  let pieces: Pieces | null = new Pieces();
  let size = 0;
  let held = 0;
  let refused: 'too-big' | 'busy' | null = null;
  const drop = () => {
    opts.budget.release(held);
    held = 0;
    pieces = null;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (refused) continue;
      if (size > opts.maxBytes) refused = 'too-big';
      else if (!opts.budget.tryTake(chunk.length)) refused = 'busy';
      if (refused) drop();
      else {
        held += chunk.length;
        pieces!.append(chunk);
      }
    }
  } catch (error) {
    drop();
    throw error;
  }
  if (stream.sizeExceeded) refused = 'too-big';
  if (refused || !pieces) {
    drop();
    return { kind: refused ?? 'too-big' };
  }
  let released = false;
  const bytes = held;
  return {
    kind: 'message',
    pieces: pieces.done(),
    size,
    release() {
      if (released) return;
      released = true;
      opts.budget.release(bytes);
    },
  };
}

export interface DataPhase {
  stream: SMTPServerDataStream;
  session: SMTPServerSession;
  guard: SessionGuard;
  budget: WeightedSemaphore;
  maxBytes: number;
  log: Logger;
  /** What the log line of a failure says, and what it names besides the error. */
  failure: { message: string; fields?: Record<string, unknown> };
}

/**
 * The DATA phase of a listener: the message is read within the budget and the session's DATA deadline; one too big
 * is answered 552, one that does not fit 451 4.3.1; a whole one is handed to `take`, whose answer (or the SMTP
 * answer it throws) is the reply; any other failure answers 451 (the client retries). Its bytes are released after.
 */
export function receiveData(
  phase: DataPhase,
  take: (message: { pieces: Buffer[]; size: number }) => Promise<string | undefined>,
  callback: (error?: Error | null, message?: string) => void,
): void {
  const { session, guard } = phase;
  guard.dataStarted(session, () => phase.stream.destroy(new Error('the DATA phase took too long')));
  const answer = (error: Error | null, message?: string) => {
    guard.answered(session, error === null);
    callback(error, message);
  };
  readMessage(phase.stream, { maxBytes: phase.maxBytes, budget: phase.budget })
    .then(async (intake) => {
      guard.dataEnded(session);
      if (intake.kind === 'too-big')
        return answer(smtpError(552, `5.3.4 Message too big: at most ${Math.floor(phase.maxBytes / 1024)} KB`));
      if (intake.kind === 'busy') return answer(smtpError(451, BUSY_ANSWER));
      try {
        const accepted = await take(intake);
        answer(null, accepted === undefined ? undefined : asciiReply(accepted));
      } finally {
        intake.release();
      }
    })
    .catch((error: unknown) => {
      guard.dataEnded(session);
      if (isSmtpAnswer(error)) return answer(error);
      phase.log.warn({ err: loggableError(error), ...phase.failure.fields }, phase.failure.message);
      answer(smtpError(451, '4.3.0 Temporary failure, try again later'));
    });
}

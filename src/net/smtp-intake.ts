// Reading a message at DATA, for every SMTP listener: the bytes are held as they arrive only while they fit in the
// listener's budget of bytes in flight (shared by all its sessions) and under the message size limit. Past either,
// the rest is drained and dropped, never held, so a hundred clients sending their largest message at once cannot
// take more memory than the budget.
import type { SMTPServerDataStream } from 'smtp-server';
import type { ByteBudget } from '../lib/byte-budget.ts';

export type Intake =
  /** The whole message; its bytes stay counted in the budget until release(). */
  | { kind: 'message'; raw: Buffer; release(): void }
  /** Over `maxBytes` (or over the SIZE smtp-server enforces): answer 552. */
  | { kind: 'too-big' }
  /** The budget was spent by other sessions' messages: answer 451 4.3.1, the client tries later. */
  | { kind: 'busy' };

export const BUSY_ANSWER = '4.3.1 Too much mail is arriving right now, try again later';

/** Reads the message of `stream` up to `maxBytes`, holding its bytes in `budget` (see Intake). */
export async function readMessage(stream: SMTPServerDataStream, opts: { maxBytes: number; budget: ByteBudget }): Promise<Intake> {
  const chunks: Buffer[] = [];
  let size = 0;
  let held = 0;
  let refused: 'too-big' | 'busy' | null = null;
  const drop = () => {
    opts.budget.release(held);
    held = 0;
    chunks.length = 0;
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
        chunks.push(chunk);
      }
    }
  } catch (error) {
    drop();
    throw error;
  }
  if (stream.sizeExceeded) refused = 'too-big';
  if (refused) {
    drop();
    return { kind: refused };
  }
  // A buffer of its own, never a slice of Node's shared pool: handing it to a thread copies just its bytes.
  const raw = Buffer.allocUnsafeSlow(size);
  let offset = 0;
  for (const chunk of chunks) offset += chunk.copy(raw, offset);
  chunks.length = 0;
  let released = false;
  const bytes = held;
  return {
    kind: 'message',
    raw,
    release() {
      if (released) return;
      released = true;
      opts.budget.release(bytes);
    },
  };
}

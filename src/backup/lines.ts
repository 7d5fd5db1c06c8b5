// Byte-stream helpers of the backup file: a JSON line in front of a binary stream, read or written without holding
// the stream in memory.

const LINE_LIMIT = 64 * 1024;

/** The first line of `source` (without its newline) and the bytes after it; null when no newline comes soon. */
export async function splitFirstLine(
  source: AsyncIterable<Uint8Array>,
): Promise<{ line: string; rest: AsyncIterable<Uint8Array> } | null> {
  const chunks = source[Symbol.asyncIterator]();
  let head: Buffer = Buffer.alloc(0);
  for (;;) {
    const next = await chunks.next();
    if (next.done) return null;
    head = Buffer.concat([head, next.value]);
    const end = head.indexOf(10);
    if (end >= 0) {
      const tail = head.subarray(end + 1);
      const rest = async function* () {
        if (tail.length > 0) yield tail;
        for (;;) {
          const more = await chunks.next();
          if (more.done) return;
          yield more.value;
        }
      };
      return { line: head.subarray(0, end).toString('utf8'), rest: rest() };
    }
    if (head.length > LINE_LIMIT) {
      await chunks.return?.();
      return null;
    }
  }
}

/** `line` and a newline, then every chunk of `rest`. */
export async function* prependLine(line: string, rest: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield Buffer.from(line + '\n', 'utf8');
  yield* rest;
}

/** The JSON object of a line, or null when it is no JSON object. */
export function parseObjectLine(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

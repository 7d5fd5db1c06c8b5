/** Errors as they may be logged: a failed query shows its statement, never the values bound to it. */

const MAX_MESSAGE = 300;

interface QueryError extends Error {
  query: string;
  params: unknown[];
}

function isQueryError(error: unknown): error is QueryError {
  const e = error as { query?: unknown; params?: unknown } | null;
  return error instanceof Error && typeof e!.query === 'string' && Array.isArray(e!.params);
}

/** The stack frames of an error without its first line(s), which repeat the message. */
function framesOf(error: Error): string | undefined {
  const at = error.stack?.indexOf('\n    at ') ?? -1;
  return at === -1 ? undefined : error.stack!.slice(at + 1);
}

/** The database's error code and names (constraint, table, column); its message with quoted values blanked. */
function causeOf(error: unknown): Record<string, string> {
  const cause = (error as { cause?: unknown }).cause as Record<string, unknown> | undefined;
  if (!cause || typeof cause !== 'object') return {};
  const named = Object.fromEntries(
    ['code', 'constraint', 'table', 'column']
      .filter((k) => typeof cause[k] === 'string')
      .map((k) => [k, cause[k] as string]),
  );
  // PostgreSQL quotes the offending value in messages such as: invalid input syntax for type uuid: "…".
  const reason =
    typeof cause.message === 'string' ? cause.message.replace(/"[^"]*"/g, '"…"').slice(0, MAX_MESSAGE) : undefined;
  return { ...named, ...(reason ? { reason } : {}) };
}

/**
 * What a log line may say about an error. drizzle's query errors put every bound parameter into their
 * message (rendered HTML, attachment bytes, personal data): log the statement, the database's error code
 * and reason instead, as an Error pino serialises like any other. Other errors pass through as they are.
 */
export function loggableError(error: unknown): unknown {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (isQueryError(e)) {
      const safe = Object.assign(new Error(`Failed query: ${e.query}`), {
        ...causeOf(e),
        params: `${e.params.length} bound values, not logged`,
        ...(e !== error && error instanceof Error ? { wrappedIn: error.constructor.name } : {}),
      });
      safe.name = e.constructor.name;
      safe.stack = `${safe.name}: ${safe.message}\n${framesOf(e) ?? ''}`;
      return safe;
    }
  }
  return error;
}

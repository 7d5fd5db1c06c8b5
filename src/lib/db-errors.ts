/** PostgreSQL errors as both drivers report them, under drizzle's DrizzleQueryError wrapper. */

export interface PgError {
  code: string;
  constraint?: string;
}

/** The PostgreSQL error in an error's cause chain, or null when there is none. */
export function pgErrorOf(error: unknown): PgError | null {
  for (
    let e = error as { code?: unknown; constraint?: unknown; cause?: unknown } | null, depth = 0;
    e && depth < 5;
    depth++
  ) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return { code: e.code, ...(typeof e.constraint === 'string' ? { constraint: e.constraint } : {}) };
    }
    e = e.cause as typeof e;
  }
  return null;
}

/** True when the error is the violation of this CHECK or UNIQUE constraint. */
export function violates(error: unknown, constraint: string): boolean {
  const pg = pgErrorOf(error);
  return !!pg && (pg.code === '23505' || pg.code === '23514') && pg.constraint === constraint;
}

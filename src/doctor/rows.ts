// What every check of `herald doctor` gives back: rows of a status, a name, a short detail and, for WARN and FAIL,
// the fix; and the time limit every check runs under, so no unanswered socket can hold doctor up.

export type Status = 'OK' | 'WARN' | 'FAIL';

export interface CheckRow {
  status: Status;
  name: string;
  detail: string;
  /** What to do about a WARN or a FAIL. */
  fix?: string;
}

export const ok = (name: string, detail: string): CheckRow => ({ status: 'OK', name, detail });
export const warn = (name: string, detail: string, fix: string): CheckRow => ({ status: 'WARN', name, detail, fix });
export const fail = (name: string, detail: string, fix: string): CheckRow => ({ status: 'FAIL', name, detail, fix });

export class CheckTimeout extends Error {
  override name = 'CheckTimeout';
}

/** `work`, or a CheckTimeout once `limitMs` passed without its answer (the work itself is left to the process exit). */
export async function within<T>(limitMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${limitMs / 1000} s`)), limitMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs one check under its time limit; a throw or a timeout becomes a FAIL row with `fix`, never a crash. */
export async function runCheck(
  name: string,
  limitMs: number,
  fix: string,
  check: () => Promise<CheckRow | CheckRow[]>,
): Promise<CheckRow[]> {
  try {
    const rows = await within(limitMs, check());
    return Array.isArray(rows) ? rows : [rows];
  } catch (error) {
    return [fail(name, describeError(error), fix)];
  }
}

/**
 * One line about an error, without a stack: a socket's code and address, the first of several attempts (a host with
 * an IPv4 and an IPv6 address), the cause a fetch hides behind "fetch failed".
 */
export function describeError(error: unknown): string {
  const e = error as {
    message?: string;
    code?: string;
    address?: string;
    port?: number;
    errors?: unknown[];
    cause?: unknown;
  } | null;
  if (!e || typeof e !== 'object') return String(error);
  // fetch's "fetch failed" and drizzle's "Failed query: …" wrap what happened.
  if (e.cause && (e.message === 'fetch failed' || e.message?.startsWith('Failed query'))) return describeError(e.cause);
  if (Array.isArray(e.errors) && e.errors.length > 0 && !e.message) return describeError(e.errors[0]);
  if (e.code === 'ECONNREFUSED' && e.address) return `connection refused at ${e.address}:${e.port}`;
  const message = (e.message ?? '').replace(/\s+/g, ' ').trim();
  if (message || e.code) return message || e.code!;
  // Not an Error (a WASM module's ErrnoError): what it carries, whatever that is.
  const shown = JSON.stringify(error) ?? '';
  return shown.length > 2 ? shown.slice(0, 200) : String(error);
}

/** True when nothing listens where the error says it connected (a refused connection, perhaps among others). */
export function isRefused(error: unknown): boolean {
  const e = error as { code?: string; originalCode?: string; errors?: unknown[]; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  // nodemailer keeps the socket's code as originalCode, under a code of its own.
  if (e.code === 'ECONNREFUSED' || e.originalCode === 'ECONNREFUSED') return true;
  if (Array.isArray(e.errors)) return e.errors.some(isRefused);
  return e.cause !== undefined && isRefused(e.cause);
}

/** The first error code along the error and its causes (a driver's wrapper carries none of its own). */
export function errorCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | null, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string') return e.code;
    e = (typeof e.cause === 'object' ? e.cause : null) as typeof e;
  }
  return undefined;
}

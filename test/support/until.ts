/**
 * The one poll of the tests and benches: calls `probe` every `everyMs` (100) until it returns something truthy
 * (which it returns), or throws after `limitMs` naming `what` (a function: the message, read when it is thrown).
 * For what no event announces; await the event where there is one.
 */
export async function until<T>(
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  what: string | (() => string),
  limitMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(typeof what === 'function' ? what() : `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Polls `probe` every 100 ms until it returns something truthy (returned), or throws after `limitMs`. */
export async function until<T>(probe: () => Promise<T | null | undefined | false>, what: string, limitMs = 20_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

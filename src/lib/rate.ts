/** A share of `whole` rounded to four decimals (0 when there is no whole, never above 1): every rate in the stats. */
export const rate = (part: number, whole: number): number =>
  whole > 0 ? Math.min(1, Math.round((part / whole) * 10_000) / 10_000) : 0;

// The y axis of the line chart.

/** A round upper bound for a y axis of four equal steps, each 1, 2 or 5 × 10^n (22 → 40, 3 → 4). */
export function niceMax(value: number): number {
  if (value <= 4) return 4;
  const raw = value / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * power >= raw)! * power;
  return step * 4;
}

/**
 * The ticks of a logarithmic y axis that holds `value`: 0, then each power of ten from 10 up to the first at or above
 * it (a warm-up's caps run from tens to a hundred thousand: on a straight scale its first weeks would not show).
 */
export function logTicks(value: number): number[] {
  const ticks = [0, 10];
  while (ticks[ticks.length - 1]! < value) ticks.push(ticks[ticks.length - 1]! * 10);
  return ticks;
}

/** Where a count sits on a logarithmic axis, from 0 (none) to 1 (`top`): log(1 + n), so 0 has a place too. */
export function logShare(value: number, top: number): number {
  return Math.log10(1 + Math.max(0, value)) / Math.log10(1 + top);
}

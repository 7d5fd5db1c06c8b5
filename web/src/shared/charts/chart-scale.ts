// The y axis of the line chart.

/** Most intervals a y axis is split into (seven labels): enough to read a value, few enough to stay legible. */
const MAX_STEPS = 6;

/**
 * The ticks of a y axis that holds `value`: 0 up to the first multiple of a round step (1, 2 or 5 × 10^n) at or above
 * it, the smallest such step that needs at most six intervals, so the top sits close to the value (245 → 0, 50 … 250).
 * Values up to 4 get 0 … 4, so a quiet chart still has a scale.
 */
export function niceTicks(value: number): number[] {
  const v = Math.max(4, Math.ceil(value));
  let power = 1;
  for (;;) {
    for (const m of [1, 2, 5]) {
      const step = m * power;
      const steps = Math.ceil(v / step);
      if (steps <= MAX_STEPS) return Array.from({ length: steps + 1 }, (_, i) => i * step);
    }
    power *= 10;
  }
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

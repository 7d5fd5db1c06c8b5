// The y axis of the line chart.

/** A round upper bound for a y axis of four equal steps, each 1, 2 or 5 × 10^n (22 → 40, 3 → 4). */
export function niceMax(value: number): number {
  if (value <= 4) return 4;
  const raw = value / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * power >= raw)! * power;
  return step * 4;
}

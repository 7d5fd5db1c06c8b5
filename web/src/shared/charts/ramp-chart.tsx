// A warm-up's ramp: a column per day of its schedule (the day's cap), what was sent that day inside it where known,
// and today marked; plain SVG on a logarithmic scale, with its numbers as a table for screen readers.
import { formatCompact } from '../format.ts';
import { logShare, logTicks } from './chart-scale.ts';
import { METRIC_COLORS } from './charts.tsx';
import { useWidth } from './use-width.ts';

export interface RampDay {
  /** The day of the warm-up, from 1. */
  day: number;
  /** The most mail the domain may send that day. */
  cap: number;
  /** What it sent that day, where known. */
  sent: number | null;
}

const PAD = { left: 40, right: 8, top: 22, bottom: 26 };
/** Room one day's label needs, in pixels. */
const LABEL_ROOM = 28;

const CAP = '#c9d5f7';
const CAP_TODAY = '#8fa8ee';
const TODAY = '#1a3ca6';

/** The days that get a label under the axis: evenly spaced, the first, the last and today always. */
function labelledDays(days: RampDay[], innerWidth: number, today: number | null): Set<number> {
  const every = Math.max(1, Math.ceil(days.length / Math.max(2, Math.floor(innerWidth / LABEL_ROOM))));
  const shown = new Set(days.filter((_, i) => i % every === 0).map((d) => d.day));
  if (days.length) shown.add(days[days.length - 1]!.day);
  if (today !== null) {
    for (const d of shown) if (d !== today && Math.abs(d - today) < every) shown.delete(d);
    shown.add(today);
  }
  return shown;
}

export function RampChart({ days, today, title }: { days: RampDay[]; today: number | null; title: string }) {
  const [box, measured] = useWidth(720);
  const W = Math.max(240, measured);
  const H = W < 480 ? 190 : 220;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const ticks = logTicks(Math.max(0, ...days.map((d) => Math.max(d.cap, d.sent ?? 0))));
  const top = ticks[ticks.length - 1]!;
  const y = (v: number) => PAD.top + innerH - logShare(v, top) * innerH;
  const slot = days.length ? innerW / days.length : innerW;
  const barW = Math.max(2, slot * 0.72);
  const x = (i: number) => PAD.left + i * slot + (slot - barW) / 2;
  const labels = labelledDays(days, innerW, today);
  const summary =
    today === null
      ? `${title}: ${days.length} days`
      : `${title}: day ${today} of ${days.length}, cap ${days.find((d) => d.day === today)?.cap ?? 'none'}`;
  return (
    <figure className="chart ramp-chart">
      <div className="chart-box" ref={box}>
        <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={summary}>
          {ticks.map((t) => (
            <g key={t}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className="grid" />
              <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" className="tick">
                {formatCompact(t)}
              </text>
            </g>
          ))}
          {days.map((d, i) => {
            const isToday = d.day === today;
            const sentW = barW * 0.5;
            return (
              <g key={d.day} data-day={d.day} className={isToday ? 'ramp-today' : undefined}>
                <title>
                  {`Day ${d.day}: cap ${d.cap}` +
                    (d.sent === null ? '' : `, sent ${d.sent}`) +
                    (isToday ? ' (today)' : '')}
                </title>
                <rect
                  x={x(i)}
                  y={y(d.cap)}
                  width={barW}
                  height={PAD.top + innerH - y(d.cap)}
                  fill={isToday ? CAP_TODAY : CAP}
                  stroke={isToday ? TODAY : 'none'}
                  strokeWidth={isToday ? 2 : 0}
                />
                {d.sent !== null && d.sent > 0 && (
                  <rect
                    x={x(i) + (barW - sentW) / 2}
                    y={y(d.sent)}
                    width={sentW}
                    height={PAD.top + innerH - y(d.sent)}
                    fill={METRIC_COLORS.sent}
                  />
                )}
                {isToday && (
                  <text x={x(i) + barW / 2} y={PAD.top - 8} textAnchor="middle" className="ramp-today-label">
                    Today
                  </text>
                )}
                {labels.has(d.day) && (
                  <text
                    x={x(i) + barW / 2}
                    y={H - 8}
                    textAnchor="middle"
                    className={isToday ? 'tick ramp-today-label' : 'tick'}
                  >
                    {d.day}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption>
        <ul className="legend">
          <li>
            <span className="swatch" style={{ background: CAP }} aria-hidden="true" />
            Cap per day (log scale)
          </li>
          <li>
            <span className="swatch" style={{ background: METRIC_COLORS.sent }} aria-hidden="true" />
            Sent
          </li>
          <li>
            <span className="swatch ramp-swatch-today" aria-hidden="true" />
            Today
          </li>
        </ul>
        <details>
          <summary>Show the numbers</summary>
          <table className="data-table compact">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="num">
                  Cap
                </th>
                <th scope="col" className="num">
                  Sent
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day} aria-current={d.day === today ? 'date' : undefined}>
                  <th scope="row">
                    {d.day}
                    {d.day === today ? ' (today)' : ''}
                  </th>
                  <td className="num">{d.cap}</td>
                  <td className="num">{d.sent ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}

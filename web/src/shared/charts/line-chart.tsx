// The line chart of a series over time (days, or hours): drawn as plain SVG at the width it is shown (so its text
// stays readable on a phone), with a tooltip on hover, tap or the arrow keys, and its numbers as a table for screen
// readers.
import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatDay, formatDayShort, formatHour, formatHourLong } from '../format.ts';
import { niceTicks } from './chart-scale.ts';
import { useWidth } from './use-width.ts';

export interface Series {
  name: string;
  color: string;
  values: number[];
}

/** What the points of the x axis are and how their labels read: short under the axis, in full in a tooltip. */
export interface TimeAxis {
  /** One point, for "use the arrow keys for each day" and the table's first column. */
  noun: string;
  short: (label: string) => string;
  long: (label: string) => string;
}

/** Days of the API's daily series (`2026-11-24`). */
export const DAY_AXIS: TimeAxis = { noun: 'day', short: formatDayShort, long: formatDay };

/** Hours of the API's hourly series (the ISO time the hour starts). */
export const HOUR_AXIS: TimeAxis = { noun: 'hour', short: formatHour, long: formatHourLong };

const PAD = { left: 36, right: 12, top: 12, bottom: 28 };
/** Room one axis label needs, in pixels ("Nov 24" and a gap). */
const LABEL_ROOM = 64;

/**
 * The points that get an axis label: every `n`th counted back from the last (today), so the labels stand evenly apart
 * and none is dropped to make room for another.
 */
function labelledPoints(count: number, innerWidth: number): number[] {
  const every = Math.max(1, Math.ceil(count / Math.max(2, Math.floor(innerWidth / LABEL_ROOM))));
  const points = [];
  for (let i = count - 1; i >= 0; i -= every) points.unshift(i);
  return points;
}

export function LineChart({
  labels,
  series,
  title,
  axis = DAY_AXIS,
}: {
  labels: string[];
  series: Series[];
  title: string;
  axis?: TimeAxis;
}) {
  const [box, measured] = useWidth(720);
  const [active, setActive] = useState<number | null>(null);
  const W = Math.max(240, measured);
  const H = W < 480 ? 200 : 240;
  const ticks = niceTicks(Math.max(0, ...series.flatMap((s) => s.values)));
  const max = ticks[ticks.length - 1]!;
  // A series with nothing in the period lies on the axis under the others: it is drawn dashed and named as none.
  const total = (s: Series) => s.values.reduce((a, b) => a + b, 0);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const last = labels.length - 1;
  const x = (i: number) => PAD.left + (last <= 0 ? innerW / 2 : (i / last) * innerW);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const pointAt = (clientX: number, svg: SVGSVGElement) => {
    const px = clientX - svg.getBoundingClientRect().left;
    return Math.min(last, Math.max(0, Math.round(((px - PAD.left) / innerW) * last)));
  };
  const point = (event: PointerEvent<SVGSVGElement>) => setActive(pointAt(event.clientX, event.currentTarget));
  const leave = (event: PointerEvent<SVGSVGElement>) => {
    if (event.pointerType === 'mouse') setActive(null); // a tap keeps its tooltip until the next tap
  };
  const step = (event: KeyboardEvent<SVGSVGElement>) => {
    const move = { ArrowLeft: -1, ArrowRight: 1, Home: -last, End: last }[event.key];
    if (move === undefined) return;
    event.preventDefault();
    setActive((current) => Math.min(last, Math.max(0, (current ?? last) + move)));
  };
  const tipLeft = active === null ? 0 : Math.min(Math.max(x(active), 80), W - 80);
  return (
    <figure className="chart">
      <div className="chart-box" ref={box}>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          width={W}
          height={H}
          role="img"
          aria-label={`${title}; use the arrow keys for each ${axis.noun}`}
          tabIndex={0}
          onPointerMove={point}
          onPointerDown={point}
          onPointerLeave={leave}
          onKeyDown={step}
          onFocus={() => setActive((current) => current ?? last)}
          onBlur={() => setActive(null)}
        >
          {ticks.map((t) => (
            <g key={t}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className="grid" />
              <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" className="tick">
                {t}
              </text>
            </g>
          ))}
          {labels.map((label, i) => (
            <line key={label} x1={x(i)} x2={x(i)} y1={PAD.top + innerH} y2={PAD.top + innerH + 4} className="grid" />
          ))}
          {labelledPoints(labels.length, innerW).map((i) => (
            <text
              key={labels[i]}
              x={x(i)}
              y={H - 8}
              textAnchor={i === last && last > 0 ? 'end' : i === 0 ? 'start' : 'middle'}
              className="tick"
            >
              {axis.short(labels[i]!)}
            </text>
          ))}
          {series.map((s) => (
            <polyline
              key={s.name}
              fill="none"
              stroke={s.color}
              strokeWidth={2.5}
              strokeLinejoin="round"
              strokeDasharray={total(s) === 0 ? '6 4' : undefined}
              points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}
            />
          ))}
          {active !== null && (
            <g className="cursor">
              <line x1={x(active)} x2={x(active)} y1={PAD.top} y2={PAD.top + innerH} />
              {series.map((s) => (
                <circle key={s.name} cx={x(active)} cy={y(s.values[active] ?? 0)} r={4} fill={s.color} />
              ))}
            </g>
          )}
        </svg>
        {active !== null && (
          <div className="chart-tooltip" role="tooltip" style={{ left: tipLeft }}>
            <strong>{axis.long(labels[active]!)}</strong>
            <ul>
              {series.map((s) => (
                <li key={s.name}>
                  <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
                  {s.name} <span className="num">{s.values[active]}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <figcaption>
        <ul className="legend">
          {series.map((s) => (
            <li key={s.name}>
              <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
              {s.name}: {total(s)}
              {total(s) === 0 && ' (dashed, on the axis)'}
            </li>
          ))}
        </ul>
        <details>
          <summary>Show the numbers</summary>
          <table className="data-table compact">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{axis.noun[0]!.toUpperCase() + axis.noun.slice(1)}</th>
                {series.map((s) => (
                  <th key={s.name} scope="col" className="num">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, i) => (
                <tr key={label}>
                  <th scope="row">{axis.long(label)}</th>
                  {series.map((s) => (
                    <td key={s.name} className="num" data-label={s.name}>
                      {s.values[i]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}

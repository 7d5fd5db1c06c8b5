// Charts drawn as plain SVG (no chart library), each with its numbers as a table for screen readers.
import { niceMax } from './chart-scale.ts';

/** One colour per kind of email activity, the same on every chart. */
export const METRIC_COLORS: Record<string, string> = {
  sent: '#2450d6', delivered: '#1b8a5a', opened: '#8a4fd3', clicked: '#d97706', bounced: '#c62828', complained: '#6b7280',
};

export interface Series {
  name: string;
  color: string;
  values: number[];
}

const W = 720;
const H = 240;
const PAD = { left: 40, right: 12, top: 12, bottom: 28 };

export function LineChart({ labels, series, title }: { labels: string[]; series: Series[]; title: string }) {
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (labels.length <= 1 ? innerW / 2 : (i / (labels.length - 1)) * innerW);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * max));
  const labelEvery = Math.max(1, Math.ceil(labels.length / 6));
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className="grid" />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" className="tick">{t}</text>
          </g>
        ))}
        {labels.map((label, i) => (i % labelEvery === 0 || i === labels.length - 1) && (
          <text key={label} x={x(i)} y={H - 8} textAnchor="middle" className="tick">{label.slice(5)}</text>
        ))}
        {series.map((s) => (
          <polyline key={s.name} fill="none" stroke={s.color} strokeWidth={2.5} strokeLinejoin="round"
            points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')} />
        ))}
      </svg>
      <figcaption>
        <ul className="legend">
          {series.map((s) => (
            <li key={s.name}><span className="swatch" style={{ background: s.color }} aria-hidden="true" />{s.name}: {s.values.reduce((a, b) => a + b, 0)}</li>
          ))}
        </ul>
        <details>
          <summary>Show the numbers</summary>
          <table className="data-table compact">
            <caption className="visually-hidden">{title}</caption>
            <thead><tr><th scope="col">Day</th>{series.map((s) => <th key={s.name} scope="col" className="num">{s.name}</th>)}</tr></thead>
            <tbody>
              {labels.map((label, i) => (
                <tr key={label}><th scope="row">{label}</th>{series.map((s) => <td key={s.name} className="num" data-label={s.name}>{s.values[i]}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}

/** Horizontal bars of counts against a total (campaign stats). */
export function BarChart({ bars, total, title }: { bars: { name: string; value: number; color: string }[]; total: number; title: string }) {
  return (
    <figure className="bars" aria-label={title} role="group">
      {bars.map((bar) => {
        const share = total > 0 ? Math.min(1, bar.value / total) : 0;
        return (
          <div key={bar.name} className="bar-row">
            <span className="bar-name">{bar.name}</span>
            <span className="bar-track" role="meter" aria-label={bar.name} aria-valuemin={0} aria-valuemax={Math.max(total, bar.value)} aria-valuenow={bar.value}>
              <span className="bar-fill" style={{ width: `${share * 100}%`, background: bar.color }} />
            </span>
            <span className="bar-value" data-testid={`stat-${bar.name.toLowerCase()}`}>{bar.value}</span>
          </div>
        );
      })}
    </figure>
  );
}

export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const share = max > 0 ? Math.min(1, value / max) : 0;
  return (
    <div className="progress">
      <progress value={value} max={Math.max(max, 1)} aria-label={label} />
      <span>{value} / {max} ({Math.round(share * 100)}%)</span>
    </div>
  );
}

// Charts drawn without a chart library: bars and progress here, the daily line chart in line-chart.tsx.

/**
 * The one series palette: a colour per kind of email activity, the same on every chart and in every legend (a
 * subset such as "opened by people" takes the colour of its kind). Mid tones, readable on the light and the dark
 * panel alike.
 */
export const METRIC_COLORS = {
  recipients: '#7d8799',
  sent: '#3b6ff5',
  delivered: '#1f9d66',
  opened: '#9061e0',
  clicked: '#e08a0b',
  bounced: '#e0483e',
  complained: '#d1468f',
  unsubscribed: '#1596b0',
  failed: '#b86b3e',
  deferred: '#c9a227',
  /** A share that passed a check (DMARC): the colour of delivered mail. */
  passed: '#1f9d66',
} as const satisfies Record<string, string>;

export type Metric = keyof typeof METRIC_COLORS;

/** Horizontal bars of counts against a total (campaign stats). */
export function BarChart({
  bars,
  total,
  title,
}: {
  bars: { name: string; value: number; color: string }[];
  total: number;
  title: string;
}) {
  return (
    <figure className="bars" aria-label={title} role="group">
      {bars.map((bar) => {
        const share = total > 0 ? Math.min(1, bar.value / total) : 0;
        return (
          <div key={bar.name} className="bar-row">
            <span className="bar-name">{bar.name}</span>
            <span
              className="bar-track"
              role="meter"
              aria-label={bar.name}
              aria-valuemin={0}
              aria-valuemax={Math.max(total, bar.value)}
              aria-valuenow={bar.value}
            >
              <span className="bar-fill" style={{ width: `${share * 100}%`, background: bar.color }} />
            </span>
            <span className="bar-value" data-testid={`stat-${bar.name.toLowerCase()}`}>
              {bar.value}
            </span>
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
      <span>
        {value} / {max} ({Math.round(share * 100)}%)
      </span>
    </div>
  );
}

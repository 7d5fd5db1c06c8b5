// Charts drawn without a chart library: bars and progress here, the daily line chart in line-chart.tsx.

/** One colour per kind of email activity, the same on every chart. */
export const METRIC_COLORS: Record<string, string> = {
  sent: '#2450d6',
  delivered: '#1b8a5a',
  opened: '#8a4fd3',
  clicked: '#d97706',
  bounced: '#c62828',
  complained: '#6b7280',
};

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

// Mailbox providers as the domain page names and charts them, and a domain's mail per hour as chart series.
import { MAILBOX_PROVIDERS, type MailboxProvider, type ThroughputHour } from '../../shared/api/types.ts';
import { METRIC_COLORS } from '../../shared/charts/charts.tsx';
import type { Series } from '../../shared/charts/line-chart.tsx';

export const PROVIDER_NAMES: Record<MailboxProvider, string> = {
  gmail: 'Gmail',
  microsoft: 'Microsoft',
  yahoo: 'Yahoo',
  apple: 'Apple',
  other: 'Other',
};

/** The throughput chart's hours. */
export const HOURS = 24;
const HOUR_MS = 3600_000;

/** One colour per mailbox provider, the same wherever providers are charted. */
export const PROVIDER_COLORS: Record<MailboxProvider, string> = {
  gmail: '#c5221f',
  microsoft: '#0067b8',
  yahoo: '#6001d2',
  apple: '#8b95a7',
  other: '#d97706',
};

/**
 * The last `hours` hours, oldest first (the current one last), and the series of each provider that sent in them plus
 * the deferrals of all, with 0 for the hours the API left out.
 */
export function hourlySeries(rows: ThroughputHour[], now: Date, hours = HOURS): { labels: string[]; series: Series[] } {
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const labels = Array.from({ length: hours }, (_, i) => new Date(current - (hours - 1 - i) * HOUR_MS).toISOString());
  const at = new Map(labels.map((label, i) => [Date.parse(label), i]));
  const sent = new Map<MailboxProvider, number[]>();
  const deferred = labels.map(() => 0);
  for (const row of rows) {
    const i = at.get(Date.parse(row.hour));
    if (i === undefined) continue;
    const line = sent.get(row.provider) ?? labels.map(() => 0);
    sent.set(row.provider, line);
    line[i] = line[i]! + row.sent;
    deferred[i] = deferred[i]! + row.deferred;
  }
  const series: Series[] = MAILBOX_PROVIDERS.filter((p) => sent.has(p)).map((p) => ({
    name: PROVIDER_NAMES[p],
    color: PROVIDER_COLORS[p],
    values: sent.get(p)!,
  }));
  if (deferred.some((n) => n > 0)) series.push({ name: 'Deferred', color: METRIC_COLORS.deferred, values: deferred });
  return { labels, series };
}

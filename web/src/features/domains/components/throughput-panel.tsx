import { useProjectQuery } from '../../../shared/api/queries.ts';
import { HOUR_AXIS, LineChart } from '../../../shared/charts/line-chart.tsx';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { getThroughput, getThroughputSeries } from '../api.ts';
import { HOURS, hourlySeries, PROVIDER_NAMES } from '../providers.ts';

/** How often the throughput is read again while the page is shown. */
const REFRESH_MS = 30_000;

/** What the domain sends to each mailbox provider: the rate allowed now and the last hour, and the last 24 hours. */
export function ThroughputPanel({ domainId }: { domainId: string }) {
  const now = useProjectQuery(['domains', domainId, 'throughput'], (api) => getThroughput(api, domainId), {
    refetchInterval: REFRESH_MS,
  });
  const series = useProjectQuery(
    ['domains', domainId, 'throughput', 'series', HOURS],
    (api) => getThroughputSeries(api, domainId, HOURS),
    { refetchInterval: REFRESH_MS },
  );
  return (
    <section className="panel" aria-labelledby="throughput-title">
      <h2 id="throughput-title">Throughput per mailbox provider</h2>
      <AsyncView state={now}>
        {(rows) => (
          <DataTable
            caption="Throughput per mailbox provider, last hour"
            rows={rows}
            rowKey={(r) => r.provider}
            columns={[
              { label: 'Provider', render: (r) => PROVIDER_NAMES[r.provider] },
              {
                label: 'Allowed per hour',
                numeric: true,
                render: (r) => (r.allowedPerHour === null ? 'Unlimited' : r.allowedPerHour.toLocaleString()),
              },
              { label: 'Sent, last hour', numeric: true, render: (r) => r.sentLastHour },
              { label: 'Deferred, last hour', numeric: true, render: (r) => r.deferredLastHour },
              { label: 'State', render: (r) => <StatusBadge status={r.state} /> },
            ]}
          />
        )}
      </AsyncView>
      <h3 className="chart-title">Last 24 hours</h3>
      <AsyncView
        state={series}
        isEmpty={(rows) => rows.length === 0}
        empty={<p>No mail from this domain in the last 24 hours.</p>}
      >
        {(rows) => {
          const { labels, series: lines } = hourlySeries(rows, new Date());
          return (
            <LineChart
              title="Mail per hour and provider, last 24 hours"
              labels={labels}
              series={lines}
              axis={HOUR_AXIS}
            />
          );
        }}
      </AsyncView>
    </section>
  );
}

import { useProjectQuery } from '../../../shared/api/queries.ts';
import { ACTIVITY_METRICS } from '../../../shared/api/types.ts';
import { METRIC_COLORS } from '../../../shared/charts/charts.tsx';
import { LineChart, type Series } from '../../../shared/charts/line-chart.tsx';
import { Link } from '../../../shared/router.tsx';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { countProject, getEmailStats, getEngagementCounts } from '../api.ts';

const title = (m: string) => m[0]!.toUpperCase() + m.slice(1);

function Counts() {
  const state = useProjectQuery(['overview', 'counts'], countProject);
  return (
    <AsyncView state={state}>
      {(c) => (
        <>
          <dl className="cards">
            <div>
              <dt>Contacts</dt>
              <dd>{c.contacts}</dd>
            </div>
            <div>
              <dt>Subscribed</dt>
              <dd>{c.subscribed}</dd>
            </div>
            <div>
              <dt>Verified domains</dt>
              <dd>{c.domains}</dd>
            </div>
          </dl>
          {c.domains === 0 && (
            <p className="notice">
              To send mail, <Link to="/domains">add and verify a sender domain</Link> first.
            </p>
          )}
        </>
      )}
    </AsyncView>
  );
}

const LEVELS = [
  { key: 'engaged', label: 'Engaged' },
  { key: 'at_risk', label: 'At risk' },
  { key: 'dormant', label: 'Dormant' },
  { key: 'new', label: 'New' },
] as const;

/** Contacts by engagement level, from people's opens and clicks (machines' never count). */
function Engagement() {
  const state = useProjectQuery(['contacts', 'engagement'], getEngagementCounts);
  return (
    <section aria-labelledby="engagement-title" className="panel">
      <h2 id="engagement-title">Engagement</h2>
      <AsyncView state={state}>
        {(counts) => (
          <dl className="cards small" aria-label="Contacts by engagement level">
            {LEVELS.map(({ key, label }) => (
              <div key={key}>
                <dt>{label}</dt>
                <dd data-testid={`engagement-${key}`}>{counts[key]}</dd>
              </div>
            ))}
          </dl>
        )}
      </AsyncView>
    </section>
  );
}

/** The project at a glance: what its email did over the last 30 days. */
export function OverviewPage() {
  const stats = useProjectQuery(['emails', 'stats', 30], (api) => getEmailStats(api, 30));
  return (
    <>
      <PageHeader title="Overview" />
      <Counts />
      <section aria-labelledby="activity-title" className="panel">
        <h2 id="activity-title">Email activity, last 30 days</h2>
        <AsyncView
          state={stats}
          isEmpty={(s) => Object.values(s.totals).every((n) => n === 0)}
          empty={
            <p>
              No email activity in the last 30 days. <Link to="/campaigns">Send a campaign</Link> or call{' '}
              <code>POST /v1/send</code>.
            </p>
          }
        >
          {(s) => {
            const series: Series[] = ACTIVITY_METRICS.map((m) => ({
              name: title(m),
              color: METRIC_COLORS[m]!,
              values: s.days.map((d) => d[m]),
            }));
            return (
              <>
                <dl className="cards small" aria-label="Totals, last 30 days">
                  {ACTIVITY_METRICS.map((m) => (
                    <div key={m}>
                      <dt>{title(m)}</dt>
                      <dd data-testid={`total-${m}`}>{s.totals[m]}</dd>
                    </div>
                  ))}
                </dl>
                <LineChart title="Emails per day, last 30 days" labels={s.days.map((d) => d.date)} series={series} />
              </>
            );
          }}
        </AsyncView>
      </section>
      <Engagement />
    </>
  );
}

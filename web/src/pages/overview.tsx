import { useApi } from '../auth/session-context.tsx';
import { AsyncView } from '../components/async-state.tsx';
import { LineChart, METRIC_COLORS, type Series } from '../components/charts.tsx';
import { ACTIVITY_METRICS, type Contact, type Domain, type EmailStats } from '../api/types.ts';
import { useAsync } from '../lib/use-async.ts';
import { Link } from '../router.tsx';
import { PageHeader } from '../shell.tsx';

const title = (m: string) => m[0]!.toUpperCase() + m.slice(1);

function Counts() {
  const api = useApi();
  const state = useAsync(async () => {
    const [contacts, subscribed, domains] = await Promise.all([
      api.list<Contact>('/contacts', { limit: 1 }),
      api.list<Contact>('/contacts', { limit: 1, subscribed: true }),
      api.list<Domain>('/domains', { limit: 1, status: 'VERIFIED' }),
    ]);
    return { contacts: contacts.total, subscribed: subscribed.total, domains: domains.total };
  }, [api]);
  return (
    <AsyncView state={state}>
      {(c) => (
        <>
          <dl className="cards">
            <div><dt>Contacts</dt><dd>{c.contacts}</dd></div>
            <div><dt>Subscribed</dt><dd>{c.subscribed}</dd></div>
            <div><dt>Verified domains</dt><dd>{c.domains}</dd></div>
          </dl>
          {c.domains === 0 && (
            <p className="notice">To send mail, <Link to="/domains">add and verify a sender domain</Link> first.</p>
          )}
        </>
      )}
    </AsyncView>
  );
}

/** The project at a glance: what its email did over the last 30 days. */
export function OverviewPage() {
  const api = useApi();
  const stats = useAsync(() => api.get<EmailStats>('/emails/stats', { days: 30 }), [api]);
  return (
    <>
      <PageHeader title="Overview" />
      <Counts />
      <section aria-labelledby="activity-title" className="panel">
        <h2 id="activity-title">Email activity, last 30 days</h2>
        <AsyncView state={stats} isEmpty={(s) => Object.values(s.totals).every((n) => n === 0)}
          empty={<p>No email activity in the last 30 days. <Link to="/campaigns">Send a campaign</Link> or call <code>POST /v1/send</code>.</p>}>
          {(s) => {
            const series: Series[] = ACTIVITY_METRICS.map((m) => ({ name: title(m), color: METRIC_COLORS[m]!, values: s.days.map((d) => d[m]) }));
            return <LineChart title="Emails per day, last 30 days" labels={s.days.map((d) => d.date)} series={series} />;
          }}
        </AsyncView>
      </section>
    </>
  );
}

import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { ACTIVITY_METRICS } from '../../../shared/api/types.ts';
import { METRIC_COLORS } from '../../../shared/charts/charts.tsx';
import { LineChart, type Series } from '../../../shared/charts/line-chart.tsx';
import { Link } from '../../../shared/router.tsx';
import { formatDateTime } from '../../../shared/format.ts';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import {
  countProject,
  DEFAULT_PROJECT_NAME,
  getEmailStats,
  getEngagementCounts,
  getStartedSteps,
  listRecentEmails,
} from '../api.ts';

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

const PERIODS = [7, 30, 90] as const;
type Period = (typeof PERIODS)[number];

/** Emails per day over the chosen period: totals, the chart, and what the figures leave out. */
function Activity() {
  const [period, setPeriod] = useState<Period>(30);
  const stats = useProjectQuery(['emails', 'stats', period], (api) => getEmailStats(api, period), {
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="activity-title" className="panel">
      <div className="panel-title">
        <h2 id="activity-title">Email activity, last {period} days</h2>
        <div className="segmented" role="group" aria-label="Period">
          {PERIODS.map((p) => (
            <button key={p} type="button" aria-pressed={p === period} onClick={() => setPeriod(p)}>
              {p} days
            </button>
          ))}
        </div>
      </div>
      <AsyncView
        state={stats}
        isEmpty={(s) => s.testSends === 0 && Object.values(s.totals).every((n) => n === 0)}
        empty={
          <p>
            No email activity in the last {period} days. <Link to="/campaigns">Send a campaign</Link> or call{' '}
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
              <dl className="cards small" aria-label={`Totals, last ${period} days`}>
                {ACTIVITY_METRICS.map((m) => (
                  <div key={m}>
                    <dt>{title(m)}</dt>
                    <dd data-testid={`total-${m}`}>{s.totals[m]}</dd>
                  </div>
                ))}
                <div>
                  <dt>Test sends</dt>
                  <dd data-testid="total-test-sends">{s.testSends}</dd>
                </div>
              </dl>
              <p className="hint" data-testid="figures-note">
                Test sends are counted apart: the email log lists them beside the rest, so its sent emails are the sent
                figure plus the test sends.
                {s.totals.delivered === 0 && s.totals.sent > 0 && (
                  <>
                    {' '}
                    Delivered counts only what a provider reports delivered (Amazon SES, Postmark and others through
                    their webhooks); the outbox and plain SMTP cannot report it, so there “Sent” is the figure to read.
                  </>
                )}
              </p>
              <LineChart
                title={`Emails per day, last ${period} days`}
                labels={s.days.map((d) => d.date)}
                series={series}
              />
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

/** A first hour's steps, each a link, ticked from the project's data; gone once every one is done. */
function GettingStarted() {
  const state = useProjectQuery(['overview', 'getting-started'], getStartedSteps);
  const steps = state.data;
  if (!steps) return null;
  const list = [
    { done: steps.named, to: '/settings', label: 'Give the project a name your recipients recognise' },
    { done: steps.domain, to: '/domains', label: 'Verify a sender domain' },
    { done: steps.email, to: '/emails', label: 'Send a first email' },
    { done: steps.contacts, to: '/contacts', label: 'Add or import contacts' },
    { done: steps.campaign, to: '/campaigns', label: 'Create a campaign' },
    { done: steps.webhook, to: '/webhooks', label: 'Add a webhook' },
  ];
  if (list.every((step) => step.done)) return null;
  return (
    <section aria-labelledby="start-title" className="panel">
      <h2 id="start-title">Getting started</h2>
      <ul className="checklist">
        {list.map((step) => (
          <li key={step.to} data-done={step.done}>
            <span className="check-mark" aria-hidden="true">
              {step.done ? '✓' : '○'}
            </span>
            <Link to={step.to}>{step.label}</Link>
            <span className="visually-hidden">{step.done ? ' (done)' : ' (to do)'}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A project still called Default shows recipients only its sender domain: the overview asks for a real name. */
function NameProjectPrompt() {
  const state = useProjectQuery(['overview', 'getting-started'], getStartedSteps);
  if (!state.data || state.data.named) return null;
  return (
    <p className="notice" data-testid="name-project">
      This project is still called “{DEFAULT_PROJECT_NAME}”. <Link to="/settings">Name it</Link> after your organisation
      or product: recipients see its name on their unsubscribe and preference pages (your sender domain until then).
    </p>
  );
}

/** The newest emails, each with its status and a link to its page. */
function RecentActivity() {
  const state = useProjectQuery(['emails', 'recent'], listRecentEmails);
  return (
    <section aria-labelledby="recent-title" className="panel">
      <h2 id="recent-title">Recent activity</h2>
      <AsyncView state={state} isEmpty={(page) => page.items.length === 0} empty={<p>No email yet.</p>}>
        {(page) => (
          <>
            <ul className="recent-list">
              {page.items.map((e) => (
                <li key={e.id}>
                  <StatusBadge status={e.status} />{' '}
                  <Link to={`/emails/${e.id}`} className="truncate" title={e.subject || undefined}>
                    {e.subject || '(no subject)'}
                  </Link>{' '}
                  <span className="muted">
                    to {Array.isArray(e.to) ? e.to.join(', ') : e.to}
                    {e.source.type === 'TEST' ? ' (test send)' : ''}, {formatDateTime(e.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
            <p>
              <Link to="/emails">All emails</Link>
            </p>
          </>
        )}
      </AsyncView>
    </section>
  );
}

/** The project at a glance: what to do first, what its email did over a period, and what happened last. */
export function OverviewPage() {
  return (
    <>
      <PageHeader title="Overview" />
      <NameProjectPrompt />
      <Counts />
      <GettingStarted />
      <Activity />
      <RecentActivity />
      <Engagement />
    </>
  );
}

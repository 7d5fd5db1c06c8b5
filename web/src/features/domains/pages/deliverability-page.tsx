// A domain's deliverability: what receivers report about its mail (DMARC pass rate over time and by source, TLS
// reports), the blocklists, and for admins the switch that asks receivers for reports, with the records to publish.
import { useMutation } from '@tanstack/react-query';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Domain } from '../../../shared/api/types.ts';
import { METRIC_COLORS } from '../../../shared/charts/charts.tsx';
import { LineChart } from '../../../shared/charts/line-chart.tsx';
import { formatDateTime, formatPercent } from '../../../shared/format.ts';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { CopyButton } from '../../../shared/ui/buttons.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { BlocklistsPanel } from '../components/blocklists-panel.tsx';
import { getDmarcSummary, getDomain, listTlsReports, setDmarcReports } from '../api.ts';

const REPORT_RECORDS = new Set(['DMARC', 'DMARC_REPORTS', 'TLS_REPORTS']);

const REASONS: Record<string, string> = {
  unknown_token: 'sent to an unknown address',
  wrong_domain: 'about another domain',
  not_a_report: 'not a report',
  entities: 'XML declaring entities',
  too_large: 'expanding past 10 MB',
  too_many_files: 'a zip of more than 10 files',
  unsafe_name: 'a zip entry named outside the archive',
};

/** The switch that asks receivers for reports (admins), and the records that make it so. */
function ReportsSwitch({ domain, onSaved }: { domain: Domain; onSaved: (domain: Domain) => void }) {
  const api = useApi();
  const canEdit = useCan('admin');
  const toggle = useMutation({ mutationFn: (on: boolean) => setDmarcReports(api, domain.id, on), onSuccess: onSaved });
  const records = domain.records.filter((r) => REPORT_RECORDS.has(r.purpose));
  return (
    <section className="panel" aria-labelledby="reports-title">
      <h2 id="reports-title">DMARC and TLS reports</h2>
      <label className="check">
        <input
          type="checkbox"
          checked={domain.dmarcReports}
          disabled={!canEdit || toggle.isPending}
          onChange={(e) => toggle.mutate(e.target.checked)}
        />{' '}
        Receive DMARC aggregate and TLS reports for {domain.domain} here
      </label>
      {toggle.error !== null && <ErrorMessage error={toggle.error} />}
      {domain.dmarcReports ? (
        <>
          <p className="hint">Publish these records; receivers send their daily reports once they see them.</p>
          <ul className="records" data-testid="report-records">
            {records.map((r) => (
              <li key={r.purpose} className="record" data-purpose={r.purpose}>
                <dl>
                  <dt>Type</dt>
                  <dd>
                    <code>{r.type}</code>
                  </dd>
                  <dt>Name</dt>
                  <dd className="copyable">
                    <code>{r.name}</code>
                    <CopyButton value={r.name} label={`${r.purpose} record name`} />
                  </dd>
                  <dt>Value</dt>
                  <dd className="copyable">
                    <code className="wrap">{r.value}</code>
                    <CopyButton value={r.value} label={`${r.purpose} record value`} />
                  </dd>
                </dl>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="hint">
          Off: receivers send no reports here. {canEdit ? 'Turn it on to see who sends mail as this domain.' : ''}
        </p>
      )}
    </section>
  );
}

/** DMARC over the last 30 days: the pass rate per day, the totals, and each source (failures not ours first). */
function DmarcPanel({ domainId }: { domainId: string }) {
  const summary = useProjectQuery(['domains', domainId, 'dmarc'], (a) => getDmarcSummary(a, domainId));
  return (
    <section className="panel" aria-labelledby="dmarc-title">
      <h2 id="dmarc-title">DMARC, last 30 days</h2>
      <AsyncView
        state={summary}
        isEmpty={(s) => s.reports === 0}
        empty="No DMARC reports yet: receivers send them daily once the DMARC record names this Herald."
      >
        {(s) => (
          <>
            <dl className="cards small" aria-label="DMARC totals, last 30 days">
              <div>
                <dt>Reports</dt>
                <dd data-testid="dmarc-reports">{s.reports}</dd>
              </div>
              <div>
                <dt>Messages</dt>
                <dd data-testid="dmarc-messages">{s.messages}</dd>
              </div>
              <div>
                <dt>Passed DMARC</dt>
                <dd data-testid="dmarc-pass-rate">{s.passRate === null ? '—' : formatPercent(s.passRate)}</dd>
              </div>
            </dl>
            <LineChart
              title="Messages that passed DMARC per day (%)"
              labels={s.days.map((d) => d.date)}
              series={[
                {
                  name: 'Passed (%)',
                  color: METRIC_COLORS.passed,
                  values: s.days.map((d) => (d.messages === 0 ? 0 : Math.round((d.passed / d.messages) * 1000) / 10)),
                },
              ]}
            />
            <h3>Sources</h3>
            <DataTable
              caption="Sending sources the reports name"
              rows={s.sources}
              rowKey={(r) => `${r.ip} ${r.dkim} ${r.spf} ${r.disposition} ${r.ours}`}
              columns={[
                { label: 'Source IP', render: (r) => r.ip ?? 'other sources' },
                {
                  label: 'Ours',
                  render: (r) =>
                    r.ours ? <span className="badge badge-good">Ours</span> : <span className="badge">Not ours</span>,
                },
                { label: 'Messages', numeric: true, render: (r) => r.count },
                { label: 'DKIM', render: (r) => r.dkim },
                { label: 'SPF', render: (r) => r.spf },
                { label: 'Disposition', render: (r) => r.disposition },
              ]}
            />
            <p className="hint">
              Ours: one of this Herald&apos;s sending IPs, or DKIM passed with this domain&apos;s own key. A source that
              fails and is not ours is someone else sending as this domain (or a service you use that is not set up
              yet): it is listed first.
            </p>
            {Object.keys(s.refused).length > 0 && (
              <p className="hint" data-testid="dmarc-refused">
                Refused report mail:{' '}
                {Object.entries(s.refused)
                  .map(([reason, n]) => `${n} ${REASONS[reason] ?? reason}`)
                  .join(', ')}
                .
              </p>
            )}
          </>
        )}
      </AsyncView>
    </section>
  );
}

/** The TLS reports of the last 30 days: who sent each, the sessions that succeeded and failed, and why. */
function TlsPanel({ domainId }: { domainId: string }) {
  const reports = useProjectQuery(['domains', domainId, 'tls-reports'], (a) => listTlsReports(a, domainId));
  return (
    <section className="panel" aria-labelledby="tls-title">
      <h2 id="tls-title">TLS reports, last 30 days</h2>
      <AsyncView state={reports} isEmpty={(rows) => rows.length === 0} empty="No TLS reports yet.">
        {(rows) => (
          <DataTable
            caption="TLS reports"
            rows={rows}
            rowKey={(r) => r.id}
            columns={[
              { label: 'From', render: (r) => r.organisation },
              { label: 'Period', render: (r) => `${formatDateTime(r.startAt)} – ${formatDateTime(r.endAt)}` },
              { label: 'Policy', render: (r) => r.policies.map((p) => p.policyType).join(', ') },
              { label: 'Successful', numeric: true, render: (r) => r.successful },
              { label: 'Failed', numeric: true, render: (r) => r.failed },
              {
                label: 'Failures',
                render: (r) =>
                  r.policies
                    .flatMap((p) => p.failures)
                    .map((f) => `${f.resultType} (${f.failedSessions})`)
                    .join(', ') || '—',
              },
            ]}
          />
        )}
      </AsyncView>
    </section>
  );
}

/** A domain's Deliverability page. */
export function DeliverabilityPage({ id }: { id: string }) {
  const cache = useProjectCache();
  const canEdit = useCan('admin');
  const state = useProjectQuery(['domains', id], (client) => getDomain(client, id));
  const saved = (domain: Domain) => {
    cache.set(['domains', id], domain);
    void cache.invalidate(['domains']);
  };
  return (
    <AsyncView state={state}>
      {(domain) => (
        <>
          <PageHeader title={`Deliverability of ${domain.domain}`} back={[`/domains/${id}`, domain.domain]} />
          <ReportsSwitch domain={domain} onSaved={saved} />
          <DmarcPanel domainId={id} />
          <TlsPanel domainId={id} />
          <BlocklistsPanel domainId={id} canCheck={canEdit} />
        </>
      )}
    </AsyncView>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { checkBlocklists, listBlocklists } from '../api.ts';

const VERDICT = {
  true: { label: 'Listed', tone: 'badge-bad' },
  false: { label: 'Not listed', tone: 'badge-good' },
  null: { label: 'Unknown', tone: 'badge-neutral' },
} as const;

/**
 * The domain's blocklist lookups (the domain, its tracking host, the sending IPs), looked up every hour; "Check now"
 * (admins) looks them up at once.
 */
export function BlocklistsPanel({ domainId, canCheck }: { domainId: string; canCheck: boolean }) {
  const api = useApi();
  const entries = useProjectQuery(['domains', domainId, 'blocklists'], (a) => listBlocklists(a, domainId));
  const check = useMutation({
    mutationFn: () => checkBlocklists(api, domainId),
    onSuccess: () => void entries.refetch(),
  });
  return (
    <section className="panel" aria-labelledby="blocklists-title">
      <h2 id="blocklists-title">Blocklists</h2>
      <AsyncView
        state={entries}
        isEmpty={(rows) => rows.length === 0}
        empty="Not looked up yet: verified domains are looked up every hour."
      >
        {(rows) => (
          <DataTable
            caption="Blocklist lookups"
            rows={rows}
            rowKey={(r) => `${r.zone} ${r.name}`}
            columns={[
              { label: 'Looked up', render: (r) => r.name },
              { label: 'Blocklist', render: (r) => r.zone },
              {
                label: 'Answer',
                render: (r) => {
                  const verdict = VERDICT[String(r.listed) as keyof typeof VERDICT];
                  return (
                    <>
                      <span className={`badge ${verdict.tone}`}>{verdict.label}</span>
                      {r.answer ? ` ${r.answer}` : ''}
                    </>
                  );
                },
              },
              { label: 'Listed since', render: (r) => (r.listedSince ? formatDateTime(r.listedSince) : '—') },
              { label: 'Checked', render: (r) => formatDateTime(r.checkedAt) },
            ]}
          />
        )}
      </AsyncView>
      <p className="hint">
        “Unknown”: the lookup failed or the blocklist refused it (some refuse public resolvers); never a listing.
      </p>
      {canCheck && (
        <div className="actions">
          <button type="button" className="secondary" onClick={() => check.mutate()} disabled={check.isPending}>
            {check.isPending ? 'Checking…' : 'Check now'}
          </button>
        </div>
      )}
      {check.error !== null && <ErrorMessage error={check.error} />}
    </section>
  );
}

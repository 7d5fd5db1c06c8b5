import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { createTransport, listTransports } from '../api.ts';
import { TransportForm, TYPE_LABELS } from '../components/transport-form.tsx';
import { TransportStateBadge } from '../components/transport-state.tsx';
import { toNewTransport, type TransportFormValues } from '../transport-form.ts';
import { AddToggle } from '../../../shared/ui/buttons.tsx';

/** How often the list reads the transports' states again while it is shown. */
const REFRESH_MS = 10_000;

/** The ways the project's mail leaves: each transport's state, and a new one added (then tested on its page). */
export function TransportsPage() {
  const api = useApi();
  const { paging } = useAddressList();
  const cache = useProjectCache();
  const [adding, setAdding] = useState(false);
  const query = { cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['transports', 'list', query], (client) => listTransports(client, query), {
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const create = async (values: TransportFormValues) => {
    const transport = await createTransport(api, toNewTransport(values));
    cache.set(['transports', transport.id], transport);
    void cache.invalidate(['transports']);
    navigate(`/transports/${transport.id}`);
  };
  return (
    <>
      <PageHeader title="Transports">
        <AddToggle label="Add transport" open={adding} onToggle={() => setAdding((a) => !a)} />
      </PageHeader>
      <p className="page-intro muted">
        The ways this project&rsquo;s mail leaves Herald. Which one an email takes is decided by the{' '}
        <Link to="/settings#routing">routing rules in Settings</Link>; a transport that keeps failing to connect is{' '}
        <strong>DOWN</strong> for a while, and its mail goes to the rule&rsquo;s fallbacks or waits.
      </p>
      {adding && <TransportForm submitLabel="Create transport" onSubmit={create} />}
      <PagedTable
        state={list}
        paging={paging}
        noun="transport"
        caption="Transports"
        rowKey={(t) => t.id}
        empty={<p>No transports.</p>}
        columns={[
          {
            label: 'Name',
            render: (t) => (
              <>
                <Link to={`/transports/${t.id}`}>{t.name}</Link>
                {t.builtIn && <span className="badge badge-neutral built-in">BUILT-IN</span>}
              </>
            ),
          },
          { label: 'Type', render: (t) => TYPE_LABELS[t.type].split(' (')[0] },
          { label: 'State', render: (t) => <TransportStateBadge transport={t} /> },
          { label: 'Since', render: (t) => formatDateTime(t.since) },
          {
            label: 'Last error',
            render: (t) =>
              t.lastError ? (
                <span className="truncate" title={t.lastError}>
                  {t.lastError}
                </span>
              ) : (
                '—'
              ),
          },
          { label: 'Failovers', numeric: true, render: (t) => t.failovers },
        ]}
      />
    </>
  );
}

import { useState } from 'react';
import type { Domain } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { ErrorMessage } from '../../components/async-state.tsx';
import { StatusBadge } from '../../components/buttons.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { useCursor } from '../../components/pager.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { submitWith, useAction } from '../../lib/use-action.ts';
import { useAsync } from '../../lib/use-async.ts';
import { Link, navigate } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';

export function DomainsPage() {
  const api = useApi();
  const paging = useCursor();
  const list = useAsync(() => api.list<Domain>('/domains', { cursor: paging.cursor, limit: 25 }), [api, paging.cursor]);
  const [name, setName] = useState('');
  const add = useAction(async () => {
    const domain = await api.post<Domain>('/domains', { domain: name });
    navigate(`/domains/${domain.id}`);
  });
  const submit = submitWith(add.run);
  return (
    <>
      <PageHeader title="Domains" />
      <form className="panel inline-form" onSubmit={submit} aria-label="Add a sender domain">
        <div className="field">
          <label htmlFor="domain-name">Sender domain</label>
          <input id="domain-name" required placeholder="mail.example.com" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <button type="submit" disabled={add.busy}>Add domain</button>
        {add.error !== null && <ErrorMessage error={add.error} />}
      </form>
      <PagedTable state={list} paging={paging} noun="domain" caption="Domains" rowKey={(d) => d.id}
        empty={<p>No sender domains yet. Add the domain you send from; Herald answers the DNS records to publish.</p>}
        columns={[
          { label: 'Domain', render: (d) => <Link to={`/domains/${d.id}`}>{d.domain}</Link> },
          { label: 'Status', render: (d) => <StatusBadge status={d.status} /> },
          { label: 'Verified', render: (d) => formatDateTime(d.verifiedAt) },
          { label: 'Last checked', render: (d) => formatDateTime(d.lastCheckedAt) },
        ]} />
    </>
  );
}

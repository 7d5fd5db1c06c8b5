import { keepPreviousData, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { submitWith } from '../../../shared/forms.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { createDomain, listDomains } from '../api.ts';

export function DomainsPage() {
  const api = useApi();
  // Sender domains are the project's configuration: admins add them.
  const canAdd = useCan('admin');
  const { paging } = useAddressList();
  const cache = useProjectCache();
  const query = { cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['domains', 'list', query], (client) => listDomains(client, query), {
    placeholderData: keepPreviousData,
  });
  const [name, setName] = useState('');
  const add = useMutation({
    mutationFn: () => createDomain(api, name),
    onSuccess: (domain) => {
      cache.set(['domains', domain.id], domain);
      void cache.invalidate(['domains']);
      navigate(`/domains/${domain.id}`);
    },
  });
  const submit = submitWith(() => add.mutate());
  return (
    <>
      <PageHeader title="Domains" />
      {canAdd && (
        <form className="panel inline-form" onSubmit={submit} aria-label="Add a sender domain">
          <div className="field">
            <label htmlFor="domain-name">Sender domain</label>
            <input
              id="domain-name"
              required
              placeholder="mail.example.com"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <button type="submit" disabled={add.isPending}>
            Add domain
          </button>
          {add.error !== null && <ErrorMessage error={add.error} />}
        </form>
      )}
      <PagedTable
        state={list}
        paging={paging}
        noun="domain"
        caption="Domains"
        rowKey={(d) => d.id}
        empty={
          <p>
            No sender domains yet.
            {canAdd && ' Add the domain you send from: Herald answers the DNS records to publish.'}
          </p>
        }
        columns={[
          { label: 'Domain', render: (d) => <Link to={`/domains/${d.id}`}>{d.domain}</Link> },
          { label: 'Status', render: (d) => <StatusBadge status={d.status} /> },
          { label: 'Verified', render: (d) => formatDateTime(d.verifiedAt) },
          { label: 'Last checked', render: (d) => formatDateTime(d.lastCheckedAt) },
        ]}
      />
    </>
  );
}

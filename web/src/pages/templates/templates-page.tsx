import { useState } from 'react';
import type { Template } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { StatusBadge } from '../../components/buttons.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { useCursor } from '../../components/pager.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useAsync } from '../../lib/use-async.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { Link } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';

export function TemplatesPage() {
  const api = useApi();
  const [search, setSearch] = useState('');
  const [type, setType] = useState('');
  const query = useDebounced(search.trim());
  const paging = useCursor();
  const list = useAsync(() => api.list<Template>('/templates', { search: query, type, cursor: paging.cursor, limit: 25 }), [api, query, type, paging.cursor]);
  return (
    <>
      <PageHeader title="Templates">
        <Link to="/templates/new" className="button">New template</Link>
      </PageHeader>
      <div className="filters" role="search">
        <div className="field">
          <label htmlFor="template-search">Search by name</label>
          <input id="template-search" type="search" value={search} onChange={(e) => { setSearch(e.target.value); paging.reset(); }} />
        </div>
        <div className="field">
          <label htmlFor="template-type">Type</label>
          <select id="template-type" value={type} onChange={(e) => { setType(e.target.value); paging.reset(); }}>
            <option value="">All types</option>
            <option value="TRANSACTIONAL">Transactional</option>
            <option value="MARKETING">Marketing</option>
          </select>
        </div>
      </div>
      <PagedTable state={list} paging={paging} noun="template" caption="Templates" rowKey={(t) => t.id}
        empty={query || type ? <p>No template matches.</p> : <p>No templates yet. <Link to="/templates/new">Write the first one</Link>.</p>}
        columns={[
          { label: 'Name', render: (t) => <Link to={`/templates/${t.id}`}>{t.name}</Link> },
          { label: 'Subject', render: (t) => <span className="truncate">{t.subject}</span> },
          { label: 'Type', render: (t) => <StatusBadge status={t.type} /> },
          { label: 'Updated', render: (t) => formatDateTime(t.updatedAt) },
        ]} />
    </>
  );
}

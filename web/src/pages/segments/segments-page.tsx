import type { Segment } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { countConditions } from '../../components/filter-model.ts';
import { PagedTable } from '../../components/paged-table.tsx';
import { useCursor } from '../../components/pager.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useAsync } from '../../lib/use-async.ts';
import { Link } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';

export function SegmentsPage() {
  const api = useApi();
  const paging = useCursor();
  const list = useAsync(() => api.list<Segment>('/segments', { cursor: paging.cursor, limit: 25 }), [api, paging.cursor]);
  return (
    <>
      <PageHeader title="Segments"><Link to="/segments/new" className="button">New segment</Link></PageHeader>
      <PagedTable state={list} paging={paging} noun="segment" caption="Segments" rowKey={(s) => s.id}
        empty={<p>No segments yet. A segment is a saved filter of your contacts; <Link to="/segments/new">build one</Link>.</p>}
        columns={[
          { label: 'Name', render: (s) => <Link to={`/segments/${s.id}`}>{s.name}</Link> },
          { label: 'Members', render: (s) => s.memberCount, numeric: true },
          { label: 'Conditions', render: (s) => countConditions(s.filter), numeric: true },
          { label: 'Updated', render: (s) => formatDateTime(s.updatedAt) },
        ]} />
    </>
  );
}

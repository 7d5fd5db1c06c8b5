import { keepPreviousData } from '@tanstack/react-query';
import { useCan } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { countConditions } from '../../../shared/filter-builder/filter-model.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { listSegments } from '../api.ts';
import { NewLink } from '../../../shared/ui/buttons.tsx';

export function SegmentsPage() {
  const canEdit = useCan('editor');
  const { paging } = useAddressList();
  const query = { cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['segments', 'list', query], (api) => listSegments(api, query), {
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Segments">{canEdit && <NewLink to="/segments/new" label="New segment" />}</PageHeader>
      <PagedTable
        state={list}
        paging={paging}
        noun="segment"
        caption="Segments"
        rowKey={(s) => s.id}
        empty={
          <p>
            No segments yet. A segment is a saved filter of your contacts
            {canEdit && (
              <>
                ; <Link to="/segments/new">build one</Link>
              </>
            )}
            .
          </p>
        }
        columns={[
          { label: 'Name', render: (s) => <Link to={`/segments/${s.id}`}>{s.name}</Link> },
          { label: 'Members', render: (s) => s.memberCount, numeric: true },
          { label: 'Type', render: (s) => (s.type === 'STATIC' ? 'List' : 'Filter') },
          { label: 'Conditions', render: (s) => (s.filter ? countConditions(s.filter) : '—'), numeric: true },
          { label: 'Updated', render: (s) => formatDateTime(s.updatedAt) },
        ]}
      />
    </>
  );
}

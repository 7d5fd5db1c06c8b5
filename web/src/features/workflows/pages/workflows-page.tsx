import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { listSegmentChoices } from '../../../shared/filter-builder/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { Link } from '../../../shared/router.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { listWorkflows } from '../api.ts';
import { triggerText } from '../components/trigger-fields.tsx';
import { editable } from '../steps.ts';

export function WorkflowsPage() {
  const api = useApi();
  const canEdit = useCan('editor');
  const { paging } = useAddressList();
  const list = useAsync(() => listWorkflows(api, { cursor: paging.cursor, limit: 25 }), [api, paging.cursor]);
  // Segment triggers read by the segment's name (the first 100 segments; past them, "a segment").
  const segments = useAsync(() => listSegmentChoices(api), [api]);
  const segmentName = (id: string) => segments.data?.items.find((s) => s.id === id)?.name;
  return (
    <>
      <PageHeader title="Workflows">
        {canEdit && <Link to="/workflows/new" className="button">New workflow</Link>}
      </PageHeader>
      <PagedTable state={list} paging={paging} noun="workflow" caption="Workflows" rowKey={(w) => w.id}
        empty={(
          <p>
            No workflows yet. A workflow runs steps (emails, waits, conditions) for each contact that triggers it
            {canEdit && <>; <Link to="/workflows/new">build one</Link></>}.
          </p>
        )}
        columns={[
          { label: 'Name', render: (w) => <Link to={`/workflows/${w.id}`}>{w.name}</Link> },
          { label: 'State', render: (w) => <StatusBadge status={w.enabled ? 'enabled' : 'disabled'} /> },
          { label: 'Trigger', render: (w) => triggerText(editable(w).trigger, segmentName) },
          { label: 'Steps', render: (w) => w.steps.length, numeric: true },
          { label: 'Updated', render: (w) => formatDateTime(w.updatedAt) },
        ]} />
    </>
  );
}

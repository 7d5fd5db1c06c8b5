import { keepPreviousData } from '@tanstack/react-query';
import { useCan } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { listSegmentChoices } from '../../../shared/filter-builder/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { StatusBadge, NewLink } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { listWorkflows } from '../api.ts';
import { triggerText } from '../components/trigger-fields.tsx';
import { countSteps, editable } from '../steps.ts';

export function WorkflowsPage() {
  const canEdit = useCan('editor');
  const { paging } = useAddressList();
  const query = { cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['workflows', 'list', query], (api) => listWorkflows(api, query), {
    placeholderData: keepPreviousData,
  });
  // Segment triggers read by the segment's name (the first 100 segments; past them, "a segment").
  const segments = useProjectQuery(['segments', 'choices'], listSegmentChoices);
  const segmentName = (id: string) => segments.data?.items.find((s) => s.id === id)?.name;
  return (
    <>
      <PageHeader title="Workflows">{canEdit && <NewLink to="/workflows/new" label="New workflow" />}</PageHeader>
      <PagedTable
        state={list}
        paging={paging}
        noun="workflow"
        caption="Workflows"
        rowKey={(w) => w.id}
        empty={
          <p>
            No workflows yet. A workflow runs steps (emails, waits, conditions) for each contact that triggers it
            {canEdit && (
              <>
                ; <Link to="/workflows/new">build one</Link>
              </>
            )}
            .
          </p>
        }
        columns={[
          { label: 'Name', render: (w) => <Link to={`/workflows/${w.id}`}>{w.name}</Link> },
          { label: 'State', render: (w) => <StatusBadge status={w.enabled ? 'enabled' : 'disabled'} /> },
          { label: 'Trigger', render: (w) => triggerText(editable(w).trigger, segmentName) },
          {
            label: 'Steps',
            // Every step, those in branches too: a workflow of one condition is not "1 step".
            render: (w) => countSteps(editable(w).steps),
            numeric: true,
          },
          { label: 'Updated', render: (w) => formatDateTime(w.updatedAt) },
        ]}
      />
    </>
  );
}

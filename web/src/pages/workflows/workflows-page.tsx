import type { Workflow } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { StatusBadge } from '../../components/buttons.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { useCursor } from '../../components/pager.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useAsync } from '../../lib/use-async.ts';
import { Link } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';

export const triggerText = (w: Workflow) => (w.trigger.type === 'EVENT' ? `event “${w.trigger.event}”` : 'started by hand');

export function WorkflowsPage() {
  const api = useApi();
  const paging = useCursor();
  const list = useAsync(() => api.list<Workflow>('/workflows', { cursor: paging.cursor, limit: 25 }), [api, paging.cursor]);
  return (
    <>
      <PageHeader title="Workflows"><Link to="/workflows/new" className="button">New workflow</Link></PageHeader>
      <PagedTable state={list} paging={paging} noun="workflow" caption="Workflows" rowKey={(w) => w.id}
        empty={<p>No workflows yet. A workflow runs steps (emails, waits, conditions) for each contact that triggers it; <Link to="/workflows/new">build one</Link>.</p>}
        columns={[
          { label: 'Name', render: (w) => <Link to={`/workflows/${w.id}`}>{w.name}</Link> },
          { label: 'State', render: (w) => <StatusBadge status={w.enabled ? 'enabled' : 'disabled'} /> },
          { label: 'Trigger', render: triggerText },
          { label: 'Steps', render: (w) => w.steps.length, numeric: true },
          { label: 'Updated', render: (w) => formatDateTime(w.updatedAt) },
        ]} />
    </>
  );
}

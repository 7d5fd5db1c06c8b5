import { useState } from 'react';
import type { Campaign } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { StatusBadge } from '../../components/buttons.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { useCursor } from '../../components/pager.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useAsync } from '../../lib/use-async.ts';
import { Link } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';

export function CampaignsPage() {
  const api = useApi();
  const [status, setStatus] = useState('');
  const paging = useCursor();
  const list = useAsync(() => api.list<Campaign>('/campaigns', { status, cursor: paging.cursor, limit: 25 }), [api, status, paging.cursor]);
  return (
    <>
      <PageHeader title="Campaigns"><Link to="/campaigns/new" className="button">New campaign</Link></PageHeader>
      <div className="filters">
        <div className="field">
          <label htmlFor="campaign-status">Status</label>
          <select id="campaign-status" value={status} onChange={(e) => { setStatus(e.target.value); paging.reset(); }}>
            <option value="">Any status</option>
            {['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'].map((s) => <option key={s} value={s}>{s.toLowerCase()}</option>)}
          </select>
        </div>
      </div>
      <PagedTable state={list} paging={paging} noun="campaign" caption="Campaigns" rowKey={(c) => c.id}
        empty={status ? <p>No {status.toLowerCase()} campaigns.</p> : <p>No campaigns yet. <Link to="/campaigns/new">Write one</Link> to email a segment of your contacts.</p>}
        columns={[
          { label: 'Name', render: (c) => <Link to={`/campaigns/${c.id}`}>{c.name}</Link> },
          { label: 'Status', render: (c) => <StatusBadge status={c.status} /> },
          { label: 'Recipients', render: (c) => c.recipientCount, numeric: true },
          { label: 'Sent or scheduled', render: (c) => formatDateTime(c.sentAt ?? c.scheduledAt) },
        ]} />
    </>
  );
}

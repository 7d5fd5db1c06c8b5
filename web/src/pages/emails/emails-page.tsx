import { useState } from 'react';
import type { Email, EmailStatus } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { StatusBadge } from '../../components/buttons.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { useCursor } from '../../components/pager.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useAsync } from '../../lib/use-async.ts';
import { Link, useSearch } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';

const STATUSES: EmailStatus[] = ['QUEUED', 'SENDING', 'SENT', 'DELIVERED', 'DEFERRED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED', 'CANCELLED'];

/** The email log: every message with its status, filterable by status (and by campaign from its page). */
export function EmailsPage() {
  const api = useApi();
  const [status, setStatus] = useState('');
  const sourceId = new URLSearchParams(useSearch()).get('source') ?? '';
  const paging = useCursor();
  const list = useAsync(() => api.list<Email>('/emails', { status, sourceId, cursor: paging.cursor, limit: 25 }), [api, status, sourceId, paging.cursor]);
  return (
    <>
      <PageHeader title="Emails" />
      <div className="filters">
        <div className="field">
          <label htmlFor="email-status">Status</label>
          <select id="email-status" value={status} onChange={(e) => { setStatus(e.target.value); paging.reset(); }}>
            <option value="">Any status</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s.toLowerCase()}</option>)}
          </select>
        </div>
        {sourceId && <p className="muted">Only the emails of one campaign. <Link to="/emails">Show all</Link></p>}
      </div>
      <PagedTable state={list} paging={paging} noun="email" caption="Emails" rowKey={(e) => e.id}
        empty={status ? <p>No {status.toLowerCase()} emails.</p> : <p>No emails yet. They appear here as soon as they are queued.</p>}
        columns={[
          { label: 'To', render: (e) => <Link to={`/emails/${e.id}`}>{e.to}</Link> },
          { label: 'Subject', render: (e) => <span className="truncate">{e.subject}</span> },
          { label: 'Status', render: (e) => <StatusBadge status={e.status} /> },
          { label: 'Source', render: (e) => e.source.type.toLowerCase() },
          { label: 'Created', render: (e) => formatDateTime(e.createdAt) },
        ]} />
    </>
  );
}

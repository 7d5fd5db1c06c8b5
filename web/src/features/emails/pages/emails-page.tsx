import { keepPreviousData } from '@tanstack/react-query';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { allOf, type EmailStatus } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList, useAddressText } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { listEmails } from '../api.ts';
import { SourceLink, useSourceNames } from '../components/source-link.tsx';

const STATUSES = allOf<EmailStatus>()([
  'SCHEDULED',
  'QUEUED',
  'SENDING',
  'SENT',
  'DELIVERED',
  'DEFERRED',
  'BOUNCED',
  'COMPLAINED',
  'FAILED',
  'SUPPRESSED',
  'CANCELLED',
]);
// `source`: the emails of one campaign (its page links here); `to`: the recipient search.
const FILTERS = { status: STATUSES, source: null, to: null } as const;

/** Whether an email was opened (or clicked): when first, and how often; a dash when never. */
function Engagement({ at, count, noun }: { at: string | null; count: number; noun: string }) {
  if (!at) return <span className="muted">—</span>;
  return (
    <span title={`First ${noun} ${formatDateTime(at)}`}>
      {count} {noun}
      {count === 1 ? '' : 's'}
    </span>
  );
}

/**
 * The email log: every message with its status, searchable by recipient, filterable by status (and by campaign from
 * its page).
 */
export function EmailsPage() {
  const {
    filters: { status, source: sourceId, to },
    setFilter,
    paging,
  } = useAddressList(FILTERS);
  const [search, setSearch] = useAddressText(to, (value, options) => setFilter('to', value, options));
  const query = { status: status || undefined, sourceId, to: to || undefined, cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['emails', 'list', query], (api) => listEmails(api, query), {
    placeholderData: keepPreviousData,
  });
  const names = useSourceNames();
  return (
    <>
      <PageHeader title="Emails" />
      <div className="filters" role="search">
        <div className="field">
          <label htmlFor="email-to">Recipient</label>
          <input
            id="email-to"
            type="search"
            value={search}
            placeholder="ann@example.com or ann@"
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="email-status">Status</label>
          <select id="email-status" value={status} onChange={(e) => setFilter('status', e.target.value)}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.toLowerCase()}
              </option>
            ))}
          </select>
        </div>
        {sourceId && (
          <p className="muted">
            Only the emails of one campaign. <Link to={status ? `/emails?status=${status}` : '/emails'}>Show all</Link>
          </p>
        )}
      </div>
      <PagedTable
        state={list}
        paging={paging}
        noun="email"
        caption="Emails"
        rowKey={(e) => e.id}
        empty={
          to ? (
            <p>
              No email to an address starting with “{to}”{status ? ` that is ${status.toLowerCase()}` : ''}.
            </p>
          ) : status ? (
            <p>No {status.toLowerCase()} emails.</p>
          ) : (
            <p>No emails yet. They appear here as soon as they are queued.</p>
          )
        }
        columns={[
          {
            label: 'To',
            render: (e) => <Link to={`/emails/${e.id}`}>{Array.isArray(e.to) ? e.to.join(', ') : e.to}</Link>,
          },
          { label: 'Subject', render: (e) => <span className="truncate">{e.subject}</span> },
          {
            label: 'Status',
            render: (e) => (
              <>
                <StatusBadge status={e.status} />
                {e.scheduledAt && e.status === 'SCHEDULED' ? (
                  <span className="muted"> {formatDateTime(e.scheduledAt)}</span>
                ) : null}
              </>
            ),
          },
          {
            label: 'Tags',
            render: (e) =>
              e.tags.map((t) => (
                <code key={t.name} className="tag">
                  {t.name}: {t.value}
                </code>
              )),
          },
          {
            label: 'Opened',
            render: (e) => <Engagement at={e.openedAt} count={e.opens} noun="open" />,
          },
          {
            label: 'Clicked',
            render: (e) => <Engagement at={e.clickedAt} count={e.clicks} noun="click" />,
          },
          { label: 'Source', render: (e) => <SourceLink source={e.source} names={names} /> },
          { label: 'Created', render: (e) => formatDateTime(e.createdAt) },
        ]}
      />
    </>
  );
}

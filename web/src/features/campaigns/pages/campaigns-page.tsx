import { keepPreviousData } from '@tanstack/react-query';
import { useCan } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { allOf, type CampaignStatus } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { StatusBadge, NewLink } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { listCampaigns } from '../api.ts';

const STATUSES = allOf<CampaignStatus>()(['DRAFT', 'SCHEDULED', 'SENDING', 'TESTING', 'PAUSED', 'SENT', 'CANCELLED']);
const FILTERS = { status: STATUSES } as const;

export function CampaignsPage() {
  const canEdit = useCan('editor');
  const {
    filters: { status },
    setFilter,
    paging,
  } = useAddressList(FILTERS);
  const query = { status: status || undefined, cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['campaigns', 'list', query], (api) => listCampaigns(api, query), {
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Campaigns">{canEdit && <NewLink to="/campaigns/new" label="New campaign" />}</PageHeader>
      <div className="filters">
        <div className="field">
          <label htmlFor="campaign-status">Status</label>
          <select id="campaign-status" value={status} onChange={(e) => setFilter('status', e.target.value)}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.toLowerCase()}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PagedTable
        state={list}
        paging={paging}
        noun="campaign"
        caption="Campaigns"
        rowKey={(c) => c.id}
        empty={
          status ? (
            <p>No {status.toLowerCase()} campaigns.</p>
          ) : (
            <p>
              No campaigns yet.
              {canEdit && (
                <>
                  {' '}
                  <Link to="/campaigns/new">Write one</Link> to email a segment of your contacts.
                </>
              )}
            </p>
          )
        }
        columns={[
          { label: 'Name', render: (c) => <Link to={`/campaigns/${c.id}`}>{c.name}</Link> },
          { label: 'Status', render: (c) => <StatusBadge status={c.status} /> },
          { label: 'Recipients', render: (c) => c.recipientCount, numeric: true },
          { label: 'Sent or scheduled', render: (c) => formatDateTime(c.sentAt ?? c.scheduledAt) },
        ]}
      />
    </>
  );
}

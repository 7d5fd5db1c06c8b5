import { useMutation } from '@tanstack/react-query';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { keepPreviousOf, useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { allOf, type WebhookDelivery } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { listDeliveries, retryDelivery } from '../api.ts';

const STATUSES = allOf<WebhookDelivery['status']>()(['PENDING', 'SUCCEEDED', 'FAILED']);
const FILTERS = { status: STATUSES } as const;

/** An endpoint's deliveries, filtered by status, with a retry; refreshed while any is pending. */
export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const api = useApi();
  const cache = useProjectCache();
  const canRetry = useCan('admin');
  const {
    filters: { status },
    setFilter,
    paging,
  } = useAddressList(FILTERS);
  const query = { status: status || undefined, cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(
    ['webhooks', webhookId, 'deliveries', query],
    (client) => listDeliveries(client, webhookId, query),
    {
      placeholderData: keepPreviousOf(webhookId),
      refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === 'PENDING') ? 3000 : false),
    },
  );
  const retry = useMutation({
    mutationFn: (id: string) => retryDelivery(api, webhookId, id),
    onSuccess: () => void cache.invalidate(['webhooks', webhookId, 'deliveries']),
  });
  return (
    <section className="panel" aria-labelledby="deliveries-title">
      <div className="panel-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <div className="field inline-field">
          <label htmlFor="delivery-status">Status</label>
          <select id="delivery-status" value={status} onChange={(e) => setFilter('status', e.target.value)}>
            <option value="">Any</option>
            <option value="PENDING">Pending</option>
            <option value="SUCCEEDED">Succeeded</option>
            <option value="FAILED">Failed</option>
          </select>
        </div>
      </div>
      {retry.error !== null && <ErrorMessage error={retry.error} />}
      <PagedTable
        state={list}
        paging={paging}
        noun="delivery"
        caption="Deliveries"
        rowKey={(d) => d.id}
        empty={
          <p>No deliveries{status ? ` with status ${status.toLowerCase()}` : ' yet'}. Send a test event to see one.</p>
        }
        columns={[
          { label: 'Event', render: (d) => <code>{d.eventType}</code> },
          { label: 'Status', render: (d) => <StatusBadge status={d.status} /> },
          { label: 'Attempts', render: (d) => d.attempts, numeric: true },
          { label: 'Response', render: (d) => d.responseStatus ?? d.lastError ?? '—' },
          { label: 'Created', render: (d) => formatDateTime(d.createdAt) },
          { label: 'Next attempt', render: (d) => formatDateTime(d.nextAttemptAt) },
          {
            label: 'Retry',
            render: (d) =>
              d.status === 'SUCCEEDED' || !canRetry ? (
                '—'
              ) : (
                <button
                  type="button"
                  className="secondary small"
                  disabled={retry.isPending}
                  onClick={() => retry.mutate(d.id)}
                >
                  Retry now
                </button>
              ),
          },
        ]}
      />
    </section>
  );
}

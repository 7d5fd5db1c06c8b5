import { useState } from 'react';
import { seg } from '../../api/client.ts';
import type { Webhook, WebhookDelivery, WebhookWithSecret } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { AsyncView, ErrorMessage } from '../../components/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../components/buttons.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { useCursor } from '../../components/pager.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useAction } from '../../lib/use-action.ts';
import { useAsync, useInterval } from '../../lib/use-async.ts';
import { navigate } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';
import { SecretOnce, WebhookForm, type WebhookInput } from './webhook-form.tsx';

function Deliveries({ webhookId, refresh }: { webhookId: string; refresh: number }) {
  const api = useApi();
  const [status, setStatus] = useState('');
  const paging = useCursor();
  const path = `/webhooks/${seg(webhookId)}/deliveries`;
  const list = useAsync(() => api.list<WebhookDelivery>(path, { status, cursor: paging.cursor, limit: 25 }), [api, path, status, paging.cursor, refresh]);
  const retry = useAction(async (id: string) => {
    await api.post(`${path}/${seg(id)}/retry`);
    list.reload();
  });
  useInterval(list.reload, 3000, list.data?.items.some((d) => d.status === 'PENDING') ?? false);
  return (
    <section className="panel" aria-labelledby="deliveries-title">
      <div className="panel-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <div className="field inline-field">
          <label htmlFor="delivery-status">Status</label>
          <select id="delivery-status" value={status} onChange={(e) => { setStatus(e.target.value); paging.reset(); }}>
            <option value="">Any</option><option value="PENDING">Pending</option><option value="SUCCEEDED">Succeeded</option><option value="FAILED">Failed</option>
          </select>
        </div>
      </div>
      {retry.error !== null && <ErrorMessage error={retry.error} />}
      <PagedTable state={list} paging={paging} noun="delivery" caption="Deliveries" rowKey={(d) => d.id}
        empty={<p>No deliveries{status ? ` with status ${status.toLowerCase()}` : ' yet'}. Send a test event to see one.</p>}
        columns={[
          { label: 'Event', render: (d) => <code>{d.eventType}</code> },
          { label: 'Status', render: (d) => <StatusBadge status={d.status} /> },
          { label: 'Attempts', render: (d) => d.attempts, numeric: true },
          { label: 'Response', render: (d) => d.responseStatus ?? d.lastError ?? '—' },
          { label: 'Created', render: (d) => formatDateTime(d.createdAt) },
          { label: 'Next attempt', render: (d) => formatDateTime(d.nextAttemptAt) },
          { label: 'Retry', render: (d) => (d.status === 'SUCCEEDED' ? '—' : <button type="button" className="secondary small" disabled={retry.busy} onClick={() => void retry.run(d.id)}>Retry now</button>) },
        ]} />
    </section>
  );
}

/** One endpoint: edit it, rotate its secret, send a test event, and its deliveries with retry. */
export function WebhookPage({ id }: { id: string }) {
  const api = useApi();
  const path = `/webhooks/${seg(id)}`;
  const state = useAsync(() => api.get<Webhook>(path), [api, path]);
  const [secret, setSecret] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const rotate = useAction(async () => setSecret((await api.post<WebhookWithSecret>(`${path}/rotate-secret`)).secret));
  const test = useAction(async () => {
    await api.post(`${path}/test`);
    setRefresh((n) => n + 1);
  });
  const remove = useAction(async () => {
    await api.delete(path);
    navigate('/webhooks');
  });
  const update = async (input: WebhookInput) => state.setData(await api.patch<Webhook>(path, input));
  return (
    <AsyncView state={state}>
      {(webhook) => (
        <>
          <PageHeader title={webhook.description || webhook.url} back={['/webhooks', 'Webhooks']}>
            <StatusBadge status={webhook.enabled ? 'enabled' : 'disabled'} />
            <button type="button" disabled={test.busy} onClick={() => void test.run()}>Send test event</button>
            <ConfirmButton label="Rotate secret" confirmLabel="Yes, make a new secret" onConfirm={() => void rotate.run()} disabled={rotate.busy} />
            <ConfirmButton label="Delete endpoint" onConfirm={() => void remove.run()} disabled={remove.busy} />
          </PageHeader>
          {webhook.disabledReason && <p className="notice">Disabled by Herald: {webhook.disabledReason}</p>}
          {[test.error, rotate.error, remove.error].filter((e) => e !== null).map((e, i) => <ErrorMessage key={i} error={e} />)}
          {secret && <SecretOnce secret={secret} />}
          <WebhookForm key={webhook.updatedAt} initial={webhook} submitLabel="Save endpoint" onSubmit={update} />
          <Deliveries webhookId={webhook.id} refresh={refresh} />
        </>
      )}
    </AsyncView>
  );
}

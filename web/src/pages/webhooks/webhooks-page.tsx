import { useState } from 'react';
import type { Webhook, WebhookWithSecret } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { StatusBadge } from '../../components/buttons.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { useCursor } from '../../components/pager.tsx';
import { useAsync } from '../../lib/use-async.ts';
import { Link } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';
import { SecretOnce, WebhookForm } from './webhook-form.tsx';

/** Webhook endpoints: register one (its secret shown once), list them. */
export function WebhooksPage() {
  const api = useApi();
  const paging = useCursor();
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  const list = useAsync(() => api.list<Webhook>('/webhooks', { cursor: paging.cursor, limit: 25 }), [api, paging.cursor]);
  const create = async (input: { url: string; description: string | null; events: string[]; enabled: boolean }) => {
    const { description, ...rest } = input;
    setCreated(await api.post<WebhookWithSecret>('/webhooks', { ...rest, ...(description ? { description } : {}) }));
    setAdding(false);
    list.reload();
  };
  return (
    <>
      <PageHeader title="Webhooks">
        <button type="button" className={adding ? '' : 'secondary'} aria-expanded={adding} onClick={() => setAdding((a) => !a)}>Add endpoint</button>
      </PageHeader>
      {created && <SecretOnce secret={created.secret}><p><Link to={`/webhooks/${created.id}`}>Open the endpoint {created.url}</Link></p></SecretOnce>}
      {adding && <WebhookForm initial={{ url: '', description: null, events: ['*'], enabled: true }} submitLabel="Register endpoint" onSubmit={create} />}
      <PagedTable state={list} paging={paging} noun="endpoint" caption="Webhook endpoints" rowKey={(w) => w.id}
        empty={<p>No webhook endpoints. Register one to receive email, contact, campaign and workflow events as signed HTTP POSTs.</p>}
        columns={[
          { label: 'URL', render: (w) => <Link to={`/webhooks/${w.id}`} className="wrap">{w.url}</Link> },
          { label: 'State', render: (w) => <StatusBadge status={w.enabled ? 'enabled' : 'disabled'} /> },
          { label: 'Events', render: (w) => (w.events.includes('*') ? 'all' : w.events.length) },
          { label: 'Description', render: (w) => w.description ?? '—' },
        ]} />
    </>
  );
}

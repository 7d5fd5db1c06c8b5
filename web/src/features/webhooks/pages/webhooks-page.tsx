import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { WebhookWithSecret } from '../../../shared/api/types.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { AddToggle, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { createWebhook, listWebhooks } from '../api.ts';
import { FormatBadge, SecretOnce, WebhookForm, type WebhookInput } from '../components/webhook-form.tsx';

/** Webhook endpoints: register one (its secret shown once), list them. */
export function WebhooksPage() {
  const api = useApi();
  // Endpoints are the project's configuration: admins register them.
  const canEdit = useCan('admin');
  const { paging } = useAddressList();
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  const cache = useProjectCache();
  const query = { cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['webhooks', 'list', query], (client) => listWebhooks(client, query), {
    placeholderData: keepPreviousData,
  });
  const create = async (input: WebhookInput) => {
    const { description, ...rest } = input;
    setCreated(await createWebhook(api, { ...rest, ...(description ? { description } : {}) }));
    setAdding(false);
    void cache.invalidate(['webhooks']);
  };
  return (
    <>
      <PageHeader title="Webhooks">
        {canEdit && <AddToggle label="Add endpoint" open={adding} onToggle={() => setAdding((a) => !a)} />}
      </PageHeader>
      {created && (
        <SecretOnce secret={created.secret}>
          <p>
            <Link to={`/webhooks/${created.id}`}>Open the endpoint {created.url}</Link>
          </p>
        </SecretOnce>
      )}
      {adding && canEdit && (
        <WebhookForm
          initial={{ url: '', description: null, events: ['*'], enabled: true, format: 'herald' }}
          submitLabel="Register endpoint"
          onSubmit={create}
          chooseFormat
        />
      )}
      <PagedTable
        state={list}
        paging={paging}
        noun="endpoint"
        caption="Webhook endpoints"
        rowKey={(w) => w.id}
        empty={
          <p>
            No webhook endpoints. Register one to receive email, contact, campaign and workflow events as signed HTTP
            POSTs.
          </p>
        }
        columns={[
          {
            label: 'URL',
            render: (w) => (
              <Link to={`/webhooks/${w.id}`} className="wrap">
                {w.url}
              </Link>
            ),
          },
          { label: 'State', render: (w) => <StatusBadge status={w.enabled ? 'enabled' : 'disabled'} /> },
          { label: 'Format', render: (w) => <FormatBadge format={w.format} /> },
          { label: 'Events', render: (w) => (w.events.includes('*') ? 'all' : w.events.length) },
          { label: 'Description', render: (w) => w.description ?? '—' },
        ]}
      />
    </>
  );
}

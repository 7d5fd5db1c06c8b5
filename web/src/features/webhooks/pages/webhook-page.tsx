import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { deleteWebhook, getWebhook, rotateWebhookSecret, testWebhook, updateWebhook } from '../api.ts';
import { WebhookDeliveries } from '../components/webhook-deliveries.tsx';
import { FormatBadge, SecretOnce, WebhookForm, type WebhookInput } from '../components/webhook-form.tsx';

/** One endpoint: edit it, rotate its secret, send a test event, and its deliveries with retry. */
export function WebhookPage({ id }: { id: string }) {
  const api = useApi();
  const canEdit = useCan('admin');
  const cache = useProjectCache();
  const state = useProjectQuery(['webhooks', id], (client) => getWebhook(client, id));
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useMutation({
    mutationFn: () => rotateWebhookSecret(api, id),
    onSuccess: (rotated) => setSecret(rotated.secret),
  });
  // The test event is a delivery like any other: the deliveries are read again to show it.
  const test = useMutation({
    mutationFn: () => testWebhook(api, id),
    onSuccess: () => void cache.invalidate(['webhooks', id, 'deliveries']),
  });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(api, id),
    onSuccess: () => {
      navigate('/webhooks');
      cache.forget(['webhooks', id]);
      void cache.invalidate(['webhooks']);
    },
  });
  // The format is fixed when the endpoint is made.
  const update = async ({ format: _format, ...input }: WebhookInput) => {
    cache.set(['webhooks', id], await updateWebhook(api, id, input));
    void cache.invalidate(['webhooks']);
  };
  return (
    <AsyncView state={state}>
      {(webhook) => (
        <>
          <PageHeader title={webhook.description || webhook.url} back={['/webhooks', 'Webhooks']}>
            <StatusBadge status={webhook.enabled ? 'enabled' : 'disabled'} />
            <FormatBadge format={webhook.format} />
            {canEdit && (
              <>
                <button type="button" disabled={test.isPending} onClick={() => test.mutate()}>
                  Send test event
                </button>
                <ConfirmButton
                  label="Rotate secret"
                  confirmLabel="Yes, make a new secret"
                  onConfirm={() => rotate.mutate()}
                  disabled={rotate.isPending}
                />
                <ConfirmButton label="Delete endpoint" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
              </>
            )}
          </PageHeader>
          {webhook.disabledReason && <p className="notice">Disabled by Herald: {webhook.disabledReason}</p>}
          {[test.error, rotate.error, remove.error]
            .filter((e) => e !== null)
            .map((e, i) => (
              <ErrorMessage key={i} error={e} />
            ))}
          {secret && <SecretOnce secret={secret} />}
          <ReadOnly when={!canEdit}>
            <WebhookForm
              key={webhook.updatedAt}
              initial={webhook}
              submitLabel="Save endpoint"
              onSubmit={update}
              readOnly={!canEdit}
            />
          </ReadOnly>
          <WebhookDeliveries webhookId={webhook.id} />
        </>
      )}
    </AsyncView>
  );
}

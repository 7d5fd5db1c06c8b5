import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useAction } from '../../../shared/hooks/use-action.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { deleteWebhook, getWebhook, rotateWebhookSecret, testWebhook, updateWebhook } from '../api.ts';
import { WebhookDeliveries } from '../components/webhook-deliveries.tsx';
import { SecretOnce, WebhookForm, type WebhookInput } from '../components/webhook-form.tsx';

/** One endpoint: edit it, rotate its secret, send a test event, and its deliveries with retry. */
export function WebhookPage({ id }: { id: string }) {
  const api = useApi();
  const canEdit = useCan('admin');
  const state = useAsync(() => getWebhook(api, id), [api, id]);
  const [secret, setSecret] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const rotate = useAction(async () => setSecret((await rotateWebhookSecret(api, id)).secret));
  const test = useAction(async () => {
    await testWebhook(api, id);
    setRefresh((n) => n + 1);
  });
  const remove = useAction(async () => {
    await deleteWebhook(api, id);
    navigate('/webhooks');
  });
  const update = async (input: WebhookInput) => state.setData(await updateWebhook(api, id, input));
  return (
    <AsyncView state={state}>
      {(webhook) => (
        <>
          <PageHeader title={webhook.description || webhook.url} back={['/webhooks', 'Webhooks']}>
            <StatusBadge status={webhook.enabled ? 'enabled' : 'disabled'} />
            {canEdit && (
              <>
                <button type="button" disabled={test.busy} onClick={() => void test.run()}>Send test event</button>
                <ConfirmButton label="Rotate secret" confirmLabel="Yes, make a new secret"
                  onConfirm={() => void rotate.run()} disabled={rotate.busy} />
                <ConfirmButton label="Delete endpoint" onConfirm={() => void remove.run()} disabled={remove.busy} />
              </>
            )}
          </PageHeader>
          {webhook.disabledReason && <p className="notice">Disabled by Herald: {webhook.disabledReason}</p>}
          {[test.error, rotate.error, remove.error].filter((e) => e !== null).map((e, i) => <ErrorMessage key={i} error={e} />)}
          {secret && <SecretOnce secret={secret} />}
          <ReadOnly when={!canEdit}>
            <WebhookForm key={webhook.updatedAt} initial={webhook} submitLabel="Save endpoint" onSubmit={update}
              readOnly={!canEdit} />
          </ReadOnly>
          <WebhookDeliveries webhookId={webhook.id} refresh={refresh} />
        </>
      )}
    </AsyncView>
  );
}

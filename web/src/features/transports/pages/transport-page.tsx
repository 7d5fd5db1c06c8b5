import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Transport } from '../../../shared/api/types.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { deleteTransport, getTransport, testTransport, updateTransport } from '../api.ts';
import { TransportForm, TYPE_LABELS } from '../components/transport-form.tsx';
import { TestResult, TransportHealth, TransportStateBadge } from '../components/transport-state.tsx';
import { toTransportChange, type TransportFormValues } from '../transport-form.ts';

/** How often the page reads the transport's state again while it is shown. */
const REFRESH_MS = 5_000;

/** The instance's own transport: set by the server's environment, so it is shown, tested, never edited here. */
function BuiltInNote({ transport }: { transport: Transport }) {
  return (
    <section className="panel" aria-labelledby="built-in-title">
      <h2 id="built-in-title">Settings</h2>
      <p>
        The instance&rsquo;s own transport ({TYPE_LABELS[transport.type]}), set by the server&rsquo;s{' '}
        <code>MAIL_TRANSPORT</code>, <code>SMTP_URL</code> or SES variables. It carries the mail of projects without
        routing and cannot be changed or deleted here.
      </p>
    </section>
  );
}

/** One transport: its health, a connection test, its settings to edit, and deleting it. */
export function TransportPage({ id }: { id: string }) {
  const api = useApi();
  const cache = useProjectCache();
  const state = useProjectQuery(['transports', id], (client) => getTransport(client, id), {
    refetchInterval: REFRESH_MS,
  });
  // A test connects for real: its outcome can change the transport's state, so the transport is read again after it.
  const test = useMutation({
    mutationFn: () => testTransport(api, id),
    onSettled: () => void cache.invalidate(['transports']),
  });
  const remove = useMutation({
    mutationFn: () => deleteTransport(api, id),
    onSuccess: () => {
      navigate('/transports');
      cache.forget(['transports', id]);
      void cache.invalidate(['transports']);
    },
  });
  const update = async (values: TransportFormValues) => {
    cache.set(['transports', id], await updateTransport(api, id, toTransportChange(values)));
    void cache.invalidate(['transports']);
  };
  return (
    <AsyncView state={state}>
      {(transport) => (
        <>
          <PageHeader title={transport.name} back={['/transports', 'Transports']} id={{ noun: 'Transport', value: id }}>
            <TransportStateBadge transport={transport} />
            <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
              {test.isPending ? 'Connecting…' : 'Test connection'}
            </button>
            {!transport.builtIn && (
              <ConfirmButton label="Delete transport" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
            )}
          </PageHeader>
          {test.data && <TestResult result={test.data} />}
          {test.error !== null && <ErrorMessage error={test.error} />}
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <TransportHealth transport={transport} />
          {transport.builtIn ? (
            <BuiltInNote transport={transport} />
          ) : (
            <TransportForm
              key={transport.updatedAt}
              transport={transport}
              submitLabel="Save transport"
              onSubmit={update}
            />
          )}
        </>
      )}
    </AsyncView>
  );
}

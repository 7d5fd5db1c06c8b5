import { useState } from 'react';
import { ApiError, seg } from '../../api/client.ts';
import type { Contact, Execution, Workflow } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { AsyncView, ErrorMessage } from '../../components/async-state.tsx';
import { StatusBadge } from '../../components/buttons.tsx';
import { Pager, useCursor } from '../../components/pager.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { submitWith, useAction } from '../../lib/use-action.ts';
import { useAsync, useInterval } from '../../lib/use-async.ts';
import { Link } from '../../router.tsx';

function ExecutionItem({ execution, workflowId, onChanged }: { execution: Execution; workflowId: string; onChanged: () => void }) {
  const api = useApi();
  const cancel = useAction(async () => {
    await api.post(`/workflows/${seg(workflowId)}/executions/${seg(execution.id)}/cancel`);
    onChanged();
  });
  const active = execution.status === 'RUNNING' || execution.status === 'WAITING';
  return (
    <li className="execution">
      <details>
        <summary>
          <StatusBadge status={execution.status} /> <Link to={`/contacts/${execution.contactId}`}>contact</Link> · started {formatDateTime(execution.startedAt)}
          {execution.finishedAt && <> · finished {formatDateTime(execution.finishedAt)}</>}
        </summary>
        <ol className="timeline">
          {execution.history.map((h, i) => (
            <li key={`${h.stepId}:${i}`}><time dateTime={h.at}>{formatDateTime(h.at)}</time> <strong>{h.type}</strong> {h.status.toLowerCase()}{h.error ? ` — ${h.error}` : ''}</li>
          ))}
        </ol>
        {active && <button type="button" className="secondary small" disabled={cancel.busy} onClick={() => void cancel.run()}>Cancel execution</button>}
        {cancel.error !== null && <ErrorMessage error={cancel.error} />}
      </details>
    </li>
  );
}

function StartManually({ workflow, onStarted }: { workflow: Workflow; onStarted: () => void }) {
  const api = useApi();
  const [email, setEmail] = useState('');
  const start = useAction(async () => {
    const found = await api.list<Contact>('/contacts', { email, limit: 1 });
    const contact = found.items[0];
    if (!contact) throw new ApiError(404, 'NOT_FOUND', `No contact has the email ${email}`);
    await api.post(`/workflows/${seg(workflow.id)}/executions`, { contactId: contact.id });
    setEmail('');
    onStarted();
  });
  const submit = submitWith(start.run);
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Start an execution">
      <div className="field"><label htmlFor="w-start">Start for the contact</label><input id="w-start" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} /></div>
      <button type="submit" className="secondary" disabled={start.busy}>Start</button>
      {start.error !== null && <ErrorMessage error={start.error} />}
    </form>
  );
}

/** The workflow's executions, newest first, each with its step history; refreshed while any is active. */
export function WorkflowExecutions({ workflow }: { workflow: Workflow }) {
  const api = useApi();
  const paging = useCursor();
  const list = useAsync(() => api.list<Execution>(`/workflows/${seg(workflow.id)}/executions`, { cursor: paging.cursor, limit: 20 }), [api, workflow.id, paging.cursor]);
  const active = list.data?.items.some((e) => e.status === 'RUNNING' || e.status === 'WAITING') ?? false;
  useInterval(list.reload, 3000, active);
  return (
    <section className="panel" aria-labelledby="executions-title">
      <h2 id="executions-title">Executions</h2>
      {workflow.trigger.type === 'MANUAL' && <StartManually workflow={workflow} onStarted={list.reload} />}
      <AsyncView state={list} isEmpty={(p) => p.items.length === 0}
        empty={<p>No executions yet.{workflow.enabled ? '' : ' Enable the workflow to start them.'}</p>}>
        {(page) => (
          <>
            <ul className="executions">{page.items.map((e) => <ExecutionItem key={e.id} execution={e} workflowId={workflow.id} onChanged={list.reload} />)}</ul>
            <Pager noun="execution" page={paging.page} shown={page.items.length} total={page.total} nextCursor={page.nextCursor} onNext={paging.next} onPrevious={paging.previous} />
          </>
        )}
      </AsyncView>
    </section>
  );
}

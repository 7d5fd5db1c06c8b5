import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { ApiError } from '../../../shared/api/client.ts';
import { keepPreviousOf, useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Execution } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { formatDateTimeSeconds, formatFullTimestamp } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { Pager } from '../../../shared/ui/pager.tsx';
import { cancelExecution, findContactByEmail, listExecutions, startExecution } from '../api.ts';
import type { EditableWorkflow } from '../steps.ts';

type HistoryEntry = Execution['history'][number];

const STEP_NAMES: Record<string, string> = {
  SEND_EMAIL: 'Send email',
  DELAY: 'Wait',
  WAIT_FOR_EVENT: 'Wait for event',
  CONDITION: 'If / else',
  UPDATE_CONTACT: 'Update contact',
  WEBHOOK: 'Webhook',
  EXIT: 'Exit',
};

/** An execution still going (running a step, or waiting): its page reads the executions again while one is. */
const isActive = (execution: Execution) => execution.status === 'RUNNING' || execution.status === 'WAITING';

/** A time to the second, the whole timestamp in its title. */
function Stamp({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatFullTimestamp(iso)}>
      {formatDateTimeSeconds(iso)}
    </time>
  );
}

/** What a step's run decided: the branch a condition took, the email a send made, how a wait ended. */
function StepDetail({ entry }: { entry: HistoryEntry }) {
  const detail = entry.detail ?? {};
  if (entry.type === 'CONDITION' && (detail.branch === 'then' || detail.branch === 'else')) {
    return (
      <>
        {' '}
        —{' '}
        <span className="branch" data-branch={detail.branch}>
          {detail.branch === 'then' ? 'yes: the condition matched' : 'no: the condition did not match'}
        </span>
      </>
    );
  }
  if (entry.type === 'SEND_EMAIL' && typeof detail.emailId === 'string')
    return (
      <>
        {' '}
        — <Link to={`/emails/${detail.emailId}`}>the email it sent</Link>
      </>
    );
  if (entry.type === 'WAIT_FOR_EVENT' && typeof detail.outcome === 'string')
    return <> — {detail.outcome === 'EVENT' ? 'the event came' : 'timed out'}</>;
  if (entry.type === 'WEBHOOK' && typeof detail.responseStatus === 'number')
    return <> — answered {detail.responseStatus}</>;
  return null;
}

function ExecutionItem({
  execution,
  workflowId,
  onChanged,
}: {
  execution: Execution;
  workflowId: string;
  onChanged: () => void;
}) {
  const api = useApi();
  const canEdit = useCan('editor');
  const cancel = useMutation({
    mutationFn: () => cancelExecution(api, workflowId, execution.id),
    onSuccess: () => onChanged(),
  });
  const active = isActive(execution);
  return (
    <li className="execution">
      <details>
        <summary>
          <StatusBadge status={execution.status} />{' '}
          {execution.contact ? (
            <Link to={`/contacts/${execution.contactId}`}>{execution.contact.emailUnicode}</Link>
          ) : (
            <span className="muted">a deleted contact</span>
          )}
          {' · started '}
          <Stamp iso={execution.startedAt} />
          {execution.finishedAt && (
            <>
              {' '}
              · finished <Stamp iso={execution.finishedAt} />
            </>
          )}
        </summary>
        <ol className="timeline">
          {execution.history.map((h, i) => (
            <li key={`${h.stepId}:${i}`} data-type={h.type}>
              <Stamp iso={h.at} /> <strong>{STEP_NAMES[h.type] ?? h.type}</strong> {h.status.toLowerCase()}
              <StepDetail entry={h} />
              {h.error ? ` — ${h.error}` : ''}
            </li>
          ))}
        </ol>
        {active && canEdit && (
          <button type="button" className="secondary small" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
            Cancel execution
          </button>
        )}
        {cancel.error !== null && <ErrorMessage error={cancel.error} />}
      </details>
    </li>
  );
}

function StartManually({ workflow, onStarted }: { workflow: EditableWorkflow; onStarted: () => void }) {
  const api = useApi();
  const [email, setEmail] = useState('');
  const start = useMutation({
    mutationFn: async () => {
      const contact = await findContactByEmail(api, email);
      if (!contact) throw new ApiError(404, 'NOT_FOUND', `No contact has the email ${email}`);
      await startExecution(api, workflow.id, contact.id);
    },
    onSuccess: () => {
      setEmail('');
      onStarted();
    },
  });
  const submit = submitWith(() => start.mutate());
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Start an execution">
      <div className="field">
        <label htmlFor="w-start">Start for the contact</label>
        <input id="w-start" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <button type="submit" className="secondary" disabled={start.isPending}>
        Start
      </button>
      {start.error !== null && <ErrorMessage error={start.error} />}
    </form>
  );
}

/** The workflow's executions, newest first, each with its step history; refreshed while any is active. */
export function WorkflowExecutions({ workflow }: { workflow: EditableWorkflow }) {
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const { paging } = useAddressList();
  const query = { cursor: paging.cursor, limit: 20 };
  const list = useProjectQuery(
    ['workflows', workflow.id, 'executions', query],
    (api) => listExecutions(api, workflow.id, query),
    {
      placeholderData: keepPreviousOf(workflow.id),
      refetchInterval: (q) => (q.state.data?.items.some(isActive) ? 3000 : false),
    },
  );
  const changed = () => void cache.invalidate(['workflows', workflow.id, 'executions']);
  return (
    <section className="panel" aria-labelledby="executions-title">
      <h2 id="executions-title">Executions</h2>
      {workflow.trigger.type === 'MANUAL' && canEdit && <StartManually workflow={workflow} onStarted={changed} />}
      <AsyncView
        state={list}
        isEmpty={(p) => p.items.length === 0}
        empty={<p>No executions yet.{workflow.enabled ? '' : ' Enable the workflow to start them.'}</p>}
      >
        {(page) => (
          <>
            <ul className="executions">
              {page.items.map((e) => (
                <ExecutionItem key={e.id} execution={e} workflowId={workflow.id} onChanged={changed} />
              ))}
            </ul>
            <Pager
              noun="execution"
              paging={paging}
              shown={page.items.length}
              total={page.total}
              nextCursor={page.nextCursor}
            />
          </>
        )}
      </AsyncView>
    </section>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import type { Body } from '../../../shared/api/operations.ts';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import type { ContactBulkAction } from '../../../shared/api/types.ts';
import { ProgressBar } from '../../../shared/charts/charts.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { JsonField } from '../../../shared/ui/json-field.tsx';
import { getContactBulk, listLists, startContactBulk } from '../api.ts';

type Action = Body<'/contacts/bulk', 'post'>['action'];

const ACTIONS: { value: Action; label: string }[] = [
  { value: 'subscribe', label: 'Subscribe' },
  { value: 'unsubscribe', label: 'Unsubscribe' },
  { value: 'addToSegment', label: 'Add to a list' },
  { value: 'removeFromSegment', label: 'Remove from a list' },
  { value: 'setData', label: 'Set data' },
  { value: 'delete', label: 'Delete' },
];

const actionLabel = (action: Action) => ACTIONS.find((a) => a.value === action)?.label;

const progressOf = (job: ContactBulkAction) => `${job.processed} of ${job.total} processed, ${job.failed} failed.`;

const finished = (job: ContactBulkAction) => job.status === 'COMPLETED' || job.status === 'FAILED';

export interface BulkTarget {
  /** Contacts ticked in the list (on any page). */
  selected: string[];
  /** The list's search and subscription filter in the segments filter language; null when it cannot say it. */
  filter: Record<string, unknown> | null;
  /** How many contacts match it (the list's total), when known. */
  matching: number | null;
  /** Whether the list is filtered at all ("all matching the filter" or "all contacts"). */
  filtered: boolean;
}

/** A bulk action on the ticked contacts or on all that match the list's filter, then its progress until it ends. */
export function ContactBulk({ target, onDone }: { target: BulkTarget; onDone: () => void }) {
  const api = useApi();
  // Until the user picks, the ticked contacts when there are any, else all that match.
  const [scope, setScope] = useState<'auto' | 'selected' | 'matching'>('auto');
  const [action, setAction] = useState<Action>('unsubscribe');
  const [segmentId, setSegmentId] = useState('');
  const [data, setData] = useState<Record<string, unknown>>({});
  const [dataProblem, setDataProblem] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const forList = action === 'addToSegment' || action === 'removeFromSegment';
  const lists = useProjectQuery(['segments', 'lists'], listLists, { enabled: forList });
  const useSelected = target.filter === null || (scope !== 'matching' && target.selected.length > 0);
  const count = useSelected ? target.selected.length : target.matching;
  const who = useSelected
    ? `${target.selected.length} selected`
    : target.filtered
      ? `all ${target.matching ?? ''} matching`
      : `all ${target.matching ?? ''}`;

  const start = useMutation({
    mutationFn: () =>
      startContactBulk(api, {
        action,
        ...(useSelected || !target.filter ? { contactIds: target.selected } : { filter: target.filter }),
        ...(forList ? { segmentId } : {}),
        ...(action === 'setData' ? { data } : {}),
      }),
    onSuccess: ({ id }) => setJobId(id),
  });

  // The job, read every second until it ends; the read that finds it ended (already the first, for a small one)
  // tells the page once. Jobs are kept apart from the contacts, whose refresh would read an ended job again.
  const poll = useProjectQuery(
    ['contact-bulk', jobId],
    async (client) => {
      const next = await getContactBulk(client, jobId!);
      if (finished(next)) onDone();
      return next;
    },
    {
      enabled: jobId !== null,
      refetchInterval: (query) => (query.state.data && finished(query.state.data) ? false : 1000),
      // An ended job changes no more.
      staleTime: (query) => (query.state.data && finished(query.state.data) ? Infinity : 0),
    },
  );
  const job = jobId === null ? null : (poll.data ?? null);

  const running = jobId !== null && (job === null || !finished(job));
  const blocked =
    start.isPending ||
    running ||
    count === 0 ||
    (forList && segmentId === '') ||
    (action === 'setData' && dataProblem !== null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!blocked) start.mutate();
  };

  return (
    <section className="panel" aria-labelledby="bulk-title">
      <h2 id="bulk-title">Bulk action</h2>
      <form onSubmit={submit}>
        <fieldset className="field">
          <legend>Contacts</legend>
          <label className="check">
            <input
              type="radio"
              name="bulk-scope"
              checked={useSelected}
              disabled={target.selected.length === 0}
              onChange={() => setScope('selected')}
            />{' '}
            The {target.selected.length} selected
          </label>
          <label className="check">
            <input
              type="radio"
              name="bulk-scope"
              checked={!useSelected}
              disabled={target.filter === null}
              onChange={() => setScope('matching')}
            />{' '}
            {target.filter === null
              ? 'All matching: not for this subscription filter (tick the contacts instead)'
              : target.filtered
                ? `All ${target.matching ?? ''} matching the current filter`
                : `All ${target.matching ?? ''} contacts`}
          </label>
        </fieldset>
        <div className="field">
          <label htmlFor="bulk-action">Action</label>
          <select id="bulk-action" value={action} onChange={(e) => setAction(e.target.value as Action)}>
            {ACTIONS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        {forList && (
          <div className="field">
            <label htmlFor="bulk-list">List</label>
            <select id="bulk-list" value={segmentId} onChange={(e) => setSegmentId(e.target.value)}>
              <option value="">Choose a list…</option>
              {(lists.data ?? []).map((list) => (
                <option key={list.id} value={list.id}>
                  {list.name}
                </option>
              ))}
            </select>
            {lists.data?.length === 0 && <p className="hint">No lists yet: create a segment of type “List” first.</p>}
          </div>
        )}
        {action === 'setData' && (
          <JsonField
            label="Data to merge into each contact (null removes a key)"
            value={data}
            onChange={setData}
            onProblem={setDataProblem}
            rows={4}
          />
        )}
        {action === 'delete' ? (
          <ConfirmButton
            label={`Delete ${who} contacts`}
            confirmLabel={`Yes, delete ${who}`}
            disabled={blocked}
            onConfirm={() => start.mutate()}
          />
        ) : (
          <button type="submit" disabled={blocked}>
            Run on {who} contacts
          </button>
        )}
      </form>
      {start.error !== null && <ErrorMessage error={start.error} />}
      {poll.error !== null && <ErrorMessage error={poll.error} />}
      {job && (
        <div className="bulk-status" aria-live="polite" data-testid="bulk-status">
          <p>
            {actionLabel(job.action)} <StatusBadge status={job.status} /> — {progressOf(job)}
          </p>
          <ProgressBar label="Contacts processed" value={job.processed} max={job.total} />
          {job.failure && <p className="field-error">{job.failure}</p>}
        </div>
      )}
    </section>
  );
}

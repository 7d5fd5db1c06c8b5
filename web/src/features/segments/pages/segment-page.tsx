import { keepPreviousData, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { keepPreviousOf, useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Filter, Segment } from '../../../shared/api/types.ts';
import { FilterBuilder } from '../../../shared/filter-builder/filter-builder.tsx';
import { hasBlanks } from '../../../shared/filter-builder/filter-model.ts';
import { useFilterContext } from '../../../shared/filter-builder/use-filter-context.ts';
import { submitWith } from '../../../shared/forms.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { useDebounced } from '../../../shared/hooks/use-debounced.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import {
  countFilter,
  createSegment,
  deleteSegment,
  getSegment,
  listSegmentMembers,
  removeListMembers,
  updateSegment,
} from '../api.ts';
import { AddListMembers } from '../components/list-members.tsx';

const DEFAULT_FILTER: Filter = { all: [{ field: 'subscribed', operator: 'equals', value: true }] };
const BLANK: Segment = {
  id: '',
  name: '',
  description: null,
  type: 'DYNAMIC',
  filter: DEFAULT_FILTER,
  memberCount: 0,
  trackMembership: false,
  createdAt: '',
  updatedAt: '',
};

/** The segment's members now; changing a list's members reads the segment (its count) and its members again. */
function Members({ segment }: { segment: Segment }) {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const { paging } = useAddressList();
  const query = { cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(
    ['segments', segment.id, 'members', query],
    (client) => listSegmentMembers(client, segment.id, query),
    { placeholderData: keepPreviousOf(segment.id) },
  );
  const isList = segment.type === 'STATIC';
  const changed = () => void cache.invalidate(['segments', segment.id]);
  const remove = useMutation({
    mutationFn: (contactId: string) => removeListMembers(api, segment.id, { contactIds: [contactId] }),
    onSuccess: changed,
  });
  return (
    <section className="panel" aria-labelledby="members-title">
      <h2 id="members-title">
        Members now: <span data-testid="member-count">{segment.memberCount}</span>
      </h2>
      {segment.trackMembership && (
        <p data-testid="membership-24h">
          Last 24 hours: {segment.enteredLast24h ?? 0} entered, {segment.exitedLast24h ?? 0} left.
        </p>
      )}
      <PagedTable
        state={list}
        paging={paging}
        noun="member"
        caption="Segment members"
        rowKey={(c) => c.id}
        empty={<p>{isList ? 'Nobody is on this list yet.' : 'No contact matches this filter now.'}</p>}
        columns={[
          { label: 'Email', render: (c) => <Link to={`/contacts/${c.id}`}>{c.email}</Link> },
          {
            label: 'Subscription',
            render: (c) => <StatusBadge status={c.subscribed ? 'subscribed' : 'unsubscribed'} />,
          },
          ...(isList && canEdit
            ? [
                {
                  label: 'Remove',
                  render: (c: { id: string; email: string }) => (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Remove ${c.email} from the list`}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(c.id)}
                    >
                      Remove
                    </button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {remove.error !== null && <ErrorMessage error={remove.error} />}
      {isList && canEdit && <AddListMembers segment={segment} onChanged={changed} />}
    </section>
  );
}

/**
 * How many contacts the filter matches as it is being edited: counted a moment after the last change, the last count
 * kept while the next is read; a filter not yet complete (a condition without its value) is not counted.
 */
function LiveCount({ filter }: { filter: Filter }) {
  const debounced = useDebounced(filter, 400);
  const settled = JSON.stringify(debounced);
  const complete = !hasBlanks(debounced);
  const state = useProjectQuery(['segments', 'count', settled], (api) => countFilter(api, settled), {
    placeholderData: keepPreviousData,
    enabled: complete,
  });
  const count = state.data?.count;
  const matches = count === 1 ? 'contact matches' : 'contacts match';
  return (
    <p className="live-count" aria-live="polite" data-testid="live-count">
      {state.error || !complete
        ? 'Finish the conditions to see how many contacts match.'
        : count === undefined
          ? 'Counting…'
          : `${count} ${matches} now${state.isFetching ? ' (counting…)' : ''}`}
    </p>
  );
}

function SegmentEditor({ segment, onSaved }: { segment: Segment; onSaved: (s: Segment) => void }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const ctx = useFilterContext(segment.id || undefined);
  const [name, setName] = useState(segment.name);
  const [description, setDescription] = useState(segment.description ?? '');
  const [filter, setFilter] = useState<Filter>(segment.filter ?? DEFAULT_FILTER);
  const [type, setType] = useState(segment.type);
  const [track, setTrack] = useState(segment.trackMembership);
  const save = useMutation({
    mutationFn: () => {
      const common = {
        name,
        description: description.trim() || null,
        trackMembership: track,
        ...(type === 'DYNAMIC' ? { filter } : {}),
      };
      return segment.id ? updateSegment(api, segment.id, common) : createSegment(api, { ...common, type });
    },
    onSuccess: (result) => {
      onSaved(result);
      if (!segment.id) navigate(`/segments/${result.id}`, { replace: true });
    },
  });
  const submit = submitWith(() => save.mutate());
  return (
    <form className="panel" onSubmit={submit} aria-label="Segment">
      <div className="grid-2">
        <div className="field">
          <label htmlFor="s-name">Name</label>
          <input id="s-name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="s-description">Description</label>
          <input id="s-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
      </div>
      {!segment.id && (
        <div className="field">
          <label htmlFor="s-type">Type</label>
          <select id="s-type" value={type} onChange={(e) => setType(e.target.value as Segment['type'])}>
            <option value="DYNAMIC">Filter: the contacts matching conditions</option>
            <option value="STATIC">List: members added by hand</option>
          </select>
        </div>
      )}
      <label>
        <input type="checkbox" checked={track} onChange={(e) => setTrack(e.target.checked)} /> Track entries and exits
        (segment.entered / segment.exited events, which can start workflows)
      </label>
      {type === 'DYNAMIC' && (
        <>
          <h2>Contacts who match</h2>
          <FilterBuilder value={filter} onChange={setFilter} ctx={ctx} />
          <LiveCount filter={filter} />
        </>
      )}
      {canEdit && (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {segment.id ? 'Save segment' : 'Create segment'}
          </button>
        </div>
      )}
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}

/** A segment: the visual filter builder, its member count and its members. `id` "new" creates one. */
export function SegmentPage({ id }: { id: string }) {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const isNew = id === 'new';
  const state = useProjectQuery(['segments', id], (client) => getSegment(client, id), {
    enabled: !isNew,
    placeholderData: isNew ? BLANK : undefined,
  });
  const remove = useMutation({
    mutationFn: () => deleteSegment(api, id),
    onSuccess: () => {
      navigate('/segments');
      cache.forget(['segments', id]);
      void cache.invalidate(['segments']);
    },
  });
  const saved = (segment: Segment) => {
    cache.set(['segments', segment.id], segment);
    void cache.invalidate(['segments']);
  };
  return (
    <AsyncView state={state}>
      {(segment) => (
        <>
          <PageHeader title={segment.id ? segment.name : 'New segment'} back={['/segments', 'Segments']}>
            {segment.id && canEdit && (
              <ConfirmButton label="Delete segment" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
            )}
          </PageHeader>
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <ReadOnly when={!canEdit}>
            <SegmentEditor key={segment.id} segment={segment} onSaved={saved} />
          </ReadOnly>
          {segment.id && <Members segment={segment} />}
        </>
      )}
    </AsyncView>
  );
}

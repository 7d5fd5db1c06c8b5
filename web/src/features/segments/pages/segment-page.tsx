import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import type { Filter, Segment } from '../../../shared/api/types.ts';
import { FilterBuilder } from '../../../shared/filter-builder/filter-builder.tsx';
import { useFilterContext } from '../../../shared/filter-builder/use-filter-context.ts';
import { submitWith, useAction } from '../../../shared/hooks/use-action.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { createSegment, deleteSegment, getSegment, listSegmentMembers, removeListMembers, updateSegment } from '../api.ts';
import { AddListMembers } from '../components/list-members.tsx';

const DEFAULT_FILTER: Filter = { all: [{ field: 'subscribed', operator: 'equals', value: true }] };
const BLANK: Segment = { id: '', name: '', description: null, type: 'DYNAMIC', filter: DEFAULT_FILTER, memberCount: 0, trackMembership: false, createdAt: '', updatedAt: '' };

function Members({ segment, onChanged }: { segment: Segment; onChanged: () => void }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const { paging } = useAddressList();
  const [version, setVersion] = useState(0);
  const list = useAsync(() => listSegmentMembers(api, segment.id, { cursor: paging.cursor, limit: 25 }), [api, segment.updatedAt, paging.cursor, version]);
  const isList = segment.type === 'STATIC';
  const remove = useAction(async (contactId: string) => {
    await removeListMembers(api, segment.id, { contactIds: [contactId] });
    setVersion((v) => v + 1);
    onChanged();
  });
  return (
    <section className="panel" aria-labelledby="members-title">
      <h2 id="members-title">Members now: <span data-testid="member-count">{segment.memberCount}</span></h2>
      {segment.trackMembership && <p data-testid="membership-24h">Last 24 hours: {segment.enteredLast24h ?? 0} entered, {segment.exitedLast24h ?? 0} left.</p>}
      <PagedTable state={list} paging={paging} noun="member" caption="Segment members" rowKey={(c) => c.id}
        empty={<p>{isList ? 'Nobody is on this list yet.' : 'No contact matches this filter now.'}</p>}
        columns={[
          { label: 'Email', render: (c) => <Link to={`/contacts/${c.id}`}>{c.email}</Link> },
          { label: 'Subscription', render: (c) => <StatusBadge status={c.subscribed ? 'subscribed' : 'unsubscribed'} /> },
          ...(isList && canEdit ? [{ label: 'Remove', render: (c: { id: string; email: string }) => (
            <button type="button" className="secondary" aria-label={`Remove ${c.email} from the list`}
              disabled={remove.busy} onClick={() => void remove.run(c.id)}>Remove</button>
          ) }] : []),
        ]} />
      {remove.error !== null && <ErrorMessage error={remove.error} />}
      {isList && canEdit && (
        <AddListMembers segment={segment} onChanged={() => { setVersion((v) => v + 1); onChanged(); }} />
      )}
    </section>
  );
}

function SegmentEditor({ segment, onSaved }: { segment: Segment; onSaved: (s: Segment) => void }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const ctx = useFilterContext(api, segment.id || undefined);
  const [name, setName] = useState(segment.name);
  const [description, setDescription] = useState(segment.description ?? '');
  const [filter, setFilter] = useState<Filter>(segment.filter ?? DEFAULT_FILTER);
  const [type, setType] = useState(segment.type);
  const [track, setTrack] = useState(segment.trackMembership);
  const save = useAction(async () => {
    const common = { name, description: description.trim() || null, trackMembership: track, ...(type === 'DYNAMIC' ? { filter } : {}) };
    const body = segment.id ? common : { ...common, type };
    const result = segment.id ? await updateSegment(api, segment.id, body) : await createSegment(api, body);
    onSaved(result);
    if (!segment.id) navigate(`/segments/${result.id}`, { replace: true });
  });
  const submit = submitWith(save.run);
  return (
    <form className="panel" onSubmit={submit} aria-label="Segment">
      <div className="grid-2">
        <div className="field"><label htmlFor="s-name">Name</label><input id="s-name" required value={name} onChange={(e) => setName(e.target.value)} /></div>
        <div className="field"><label htmlFor="s-description">Description</label><input id="s-description" value={description} onChange={(e) => setDescription(e.target.value)} /></div>
      </div>
      {!segment.id && (
        <div className="field"><label htmlFor="s-type">Type</label>
          <select id="s-type" value={type} onChange={(e) => setType(e.target.value as Segment['type'])}>
            <option value="DYNAMIC">Filter: the contacts matching conditions</option>
            <option value="STATIC">List: members added by hand</option>
          </select></div>
      )}
      <label><input type="checkbox" checked={track} onChange={(e) => setTrack(e.target.checked)} /> Track entries and exits (segment.entered / segment.exited events, which can start workflows)</label>
      {type === 'DYNAMIC' && <><h2>Contacts who match</h2><FilterBuilder value={filter} onChange={setFilter} ctx={ctx} /></>}
      {canEdit && (
        <div className="actions">
          <button type="submit" disabled={save.busy}>{segment.id ? 'Save segment' : 'Create segment'}</button>
        </div>
      )}
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}

/** A segment: the visual filter builder, its member count and its members. `id` "new" creates one. */
export function SegmentPage({ id }: { id: string }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const state = useAsync(() => (id === 'new' ? Promise.resolve(BLANK) : getSegment(api, id)), [api, id]);
  const remove = useAction(async () => {
    await deleteSegment(api, id);
    navigate('/segments');
  });
  return (
    <AsyncView state={state}>
      {(segment) => (
        <>
          <PageHeader title={segment.id ? segment.name : 'New segment'} back={['/segments', 'Segments']}>
            {segment.id && canEdit && (
              <ConfirmButton label="Delete segment" onConfirm={() => void remove.run()} disabled={remove.busy} />
            )}
          </PageHeader>
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <ReadOnly when={!canEdit}>
            <SegmentEditor key={segment.id} segment={segment} onSaved={state.setData} />
          </ReadOnly>
          {segment.id && <Members segment={segment} onChanged={() => void getSegment(api, segment.id).then(state.setData)} />}
        </>
      )}
    </AsyncView>
  );
}

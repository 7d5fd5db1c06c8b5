import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
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
import { createSegment, deleteSegment, getSegment, listSegmentMembers, updateSegment } from '../api.ts';

const BLANK: Segment = { id: '', name: '', description: null, filter: { all: [{ field: 'subscribed', operator: 'equals', value: true }] }, memberCount: 0, createdAt: '', updatedAt: '' };

function Members({ segment }: { segment: Segment }) {
  const api = useApi();
  const { paging } = useAddressList();
  const list = useAsync(() => listSegmentMembers(api, segment.id, { cursor: paging.cursor, limit: 25 }), [api, segment.updatedAt, paging.cursor]);
  return (
    <section className="panel" aria-labelledby="members-title">
      <h2 id="members-title">Members now: <span data-testid="member-count">{segment.memberCount}</span></h2>
      <PagedTable state={list} paging={paging} noun="member" caption="Segment members" rowKey={(c) => c.id}
        empty={<p>No contact matches this filter now.</p>}
        columns={[
          { label: 'Email', render: (c) => <Link to={`/contacts/${c.id}`}>{c.email}</Link> },
          { label: 'Subscription', render: (c) => <StatusBadge status={c.subscribed ? 'subscribed' : 'unsubscribed'} /> },
        ]} />
    </section>
  );
}

function SegmentEditor({ segment, onSaved }: { segment: Segment; onSaved: (s: Segment) => void }) {
  const api = useApi();
  const ctx = useFilterContext(api, segment.id || undefined);
  const [name, setName] = useState(segment.name);
  const [description, setDescription] = useState(segment.description ?? '');
  const [filter, setFilter] = useState<Filter>(segment.filter);
  const save = useAction(async () => {
    const body = { name, description: description.trim() || null, filter };
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
      <h2>Contacts who match</h2>
      <FilterBuilder value={filter} onChange={setFilter} ctx={ctx} />
      <div className="actions">
        <button type="submit" disabled={save.busy}>{segment.id ? 'Save segment' : 'Create segment'}</button>
      </div>
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}

/** A segment: the visual filter builder, its member count and its members. `id` "new" creates one. */
export function SegmentPage({ id }: { id: string }) {
  const api = useApi();
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
            {segment.id && <ConfirmButton label="Delete segment" onConfirm={() => void remove.run()} disabled={remove.busy} />}
          </PageHeader>
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <SegmentEditor key={segment.id} segment={segment} onSaved={state.setData} />
          {segment.id && <Members segment={segment} />}
        </>
      )}
    </AsyncView>
  );
}

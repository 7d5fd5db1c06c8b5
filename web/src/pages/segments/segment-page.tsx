import { useState } from 'react';
import { seg } from '../../api/client.ts';
import type { Contact, Filter, Segment } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { AsyncView, ErrorMessage } from '../../components/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../components/buttons.tsx';
import { FilterBuilder } from '../../components/filter-builder.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { useCursor } from '../../components/pager.tsx';
import { useFilterContext } from '../../components/use-filter-context.ts';
import { submitWith, useAction } from '../../lib/use-action.ts';
import { useAsync } from '../../lib/use-async.ts';
import { Link, navigate } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';

const BLANK: Segment = { id: '', name: '', description: null, filter: { all: [{ field: 'subscribed', operator: 'equals', value: true }] }, memberCount: 0, createdAt: '', updatedAt: '' };

function Members({ segment }: { segment: Segment }) {
  const api = useApi();
  const paging = useCursor();
  const list = useAsync(() => api.list<Contact>(`/segments/${seg(segment.id)}/contacts`, { cursor: paging.cursor, limit: 25 }), [api, segment.updatedAt, paging.cursor]);
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
  const ctx = useFilterContext(segment.id || undefined);
  const [name, setName] = useState(segment.name);
  const [description, setDescription] = useState(segment.description ?? '');
  const [filter, setFilter] = useState<Filter>(segment.filter);
  const save = useAction(async () => {
    const body = { name, description: description.trim() || null, filter };
    const result = segment.id ? await api.patch<Segment>(`/segments/${seg(segment.id)}`, body) : await api.post<Segment>('/segments', body);
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
  const state = useAsync(() => (id === 'new' ? Promise.resolve(BLANK) : api.get<Segment>(`/segments/${seg(id)}`)), [api, id]);
  const remove = useAction(async () => {
    await api.delete(`/segments/${seg(id)}`);
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

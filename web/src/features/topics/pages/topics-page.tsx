import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { Link } from '../../../shared/router.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { createTopic, listTopics } from '../api.ts';
import { TopicForm, type TopicInput } from '../components/topic-form.tsx';

/** The project's topics (what contacts choose to hear about in the preference centre): list and create. */
export function TopicsPage() {
  const api = useApi();
  const canEdit = useCan('editor');
  const { paging } = useAddressList();
  const [adding, setAdding] = useState(false);
  const list = useAsync(() => listTopics(api, { cursor: paging.cursor, limit: 25 }), [api, paging.cursor]);
  const create = async (input: TopicInput) => {
    await createTopic(api, input);
    setAdding(false);
    list.reload();
  };
  return (
    <>
      <PageHeader title="Topics">
        {canEdit && (
          <button type="button" className={adding ? '' : 'secondary'} aria-expanded={adding}
            onClick={() => setAdding((a) => !a)}>
            New topic
          </button>
        )}
      </PageHeader>
      {adding && canEdit && (
        <TopicForm initial={{ name: '', description: null, defaultSubscription: 'OPT_IN' }} submitLabel="Create topic"
          onSubmit={create} />
      )}
      <PagedTable state={list} paging={paging} noun="topic" caption="Topics" rowKey={(t) => t.id}
        empty={<p>No topics yet. Topics are what contacts choose to hear about (a newsletter, product news) on their preference page.</p>}
        columns={[
          { label: 'Name', render: (t) => <Link to={`/topics/${t.id}`}>{t.name}</Link> },
          { label: 'Default', render: (t) => (t.defaultSubscription === 'OPT_IN' ? 'Opt-in' : 'Opt-out') },
          { label: 'Description', render: (t) => t.description ?? '—' },
          { label: 'Created', render: (t) => formatDateTime(t.createdAt) },
        ]} />
    </>
  );
}

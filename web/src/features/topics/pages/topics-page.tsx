import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { createTopic, listTopics } from '../api.ts';
import { TopicForm, type TopicInput } from '../components/topic-form.tsx';
import { AddToggle } from '../../../shared/ui/buttons.tsx';

/** The project's topics (what contacts choose to hear about in the preference centre): list and create. */
export function TopicsPage() {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const { paging } = useAddressList();
  const [adding, setAdding] = useState(false);
  const query = { cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['topics', 'list', query], (client) => listTopics(client, query), {
    placeholderData: keepPreviousData,
  });
  const create = async (input: TopicInput) => {
    await createTopic(api, input);
    setAdding(false);
    void cache.invalidate(['topics']);
  };
  return (
    <>
      <PageHeader title="Topics">
        {canEdit && <AddToggle label="New topic" open={adding} onToggle={() => setAdding((a) => !a)} />}
      </PageHeader>
      {adding && canEdit && (
        <TopicForm
          initial={{ name: '', description: null, defaultSubscription: 'OPT_IN' }}
          submitLabel="Create topic"
          onSubmit={create}
        />
      )}
      <PagedTable
        state={list}
        paging={paging}
        noun="topic"
        caption="Topics"
        rowKey={(t) => t.id}
        empty={
          <p>
            No topics yet. Topics are what contacts choose to hear about (a newsletter, product news) on their
            preference page.
          </p>
        }
        columns={[
          { label: 'Name', render: (t) => <Link to={`/topics/${t.id}`}>{t.name}</Link> },
          { label: 'Default', render: (t) => (t.defaultSubscription === 'OPT_IN' ? 'Opt-in' : 'Opt-out') },
          { label: 'Description', render: (t) => t.description ?? '—' },
          { label: 'Created', render: (t) => formatDateTime(t.createdAt) },
        ]}
      />
    </>
  );
}

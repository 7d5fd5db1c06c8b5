import { useMutation } from '@tanstack/react-query';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { deleteTopic, getTopic, updateTopic } from '../api.ts';
import { TopicForm, type TopicInput } from '../components/topic-form.tsx';

/** One topic: edit its name and description, or delete it (the contacts' choices go with it). */
export function TopicPage({ id }: { id: string }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const cache = useProjectCache();
  const state = useProjectQuery(['topics', id], (client) => getTopic(client, id));
  const remove = useMutation({
    mutationFn: () => deleteTopic(api, id),
    onSuccess: () => {
      navigate('/topics');
      cache.forget(['topics', id]);
      void cache.invalidate(['topics']);
    },
  });
  const save = async ({ name, description }: TopicInput) => {
    cache.set(['topics', id], await updateTopic(api, id, { name, description }));
    void cache.invalidate(['topics']);
  };
  return (
    <AsyncView state={state}>
      {(topic) => (
        <>
          <PageHeader title={topic.name} back={['/topics', 'Topics']} id={{ noun: 'Topic', value: topic.id }}>
            {canEdit && (
              <ConfirmButton label="Delete topic" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
            )}
          </PageHeader>
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <ReadOnly when={!canEdit}>
            <TopicForm
              key={topic.id}
              initial={topic}
              submitLabel="Save topic"
              onSubmit={save}
              editing
              readOnly={!canEdit}
            />
          </ReadOnly>
        </>
      )}
    </AsyncView>
  );
}

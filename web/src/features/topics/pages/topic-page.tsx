import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useAction } from '../../../shared/hooks/use-action.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
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
  const state = useAsync(() => getTopic(api, id), [api, id]);
  const remove = useAction(async () => {
    await deleteTopic(api, id);
    navigate('/topics');
  });
  const save = async ({ name, description }: TopicInput) => state.setData(await updateTopic(api, id, { name, description }));
  return (
    <AsyncView state={state}>
      {(topic) => (
        <>
          <PageHeader title={topic.name} back={['/topics', 'Topics']} id={{ noun: 'Topic', value: topic.id }}>
            {canEdit && (
              <ConfirmButton label="Delete topic" onConfirm={() => void remove.run()} disabled={remove.busy} />
            )}
          </PageHeader>
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <ReadOnly when={!canEdit}>
            <TopicForm key={topic.id} initial={topic} submitLabel="Save topic" onSubmit={save} editing
              readOnly={!canEdit} />
          </ReadOnly>
        </>
      )}
    </AsyncView>
  );
}

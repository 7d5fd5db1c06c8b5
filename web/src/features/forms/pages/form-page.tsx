import { useMutation } from '@tanstack/react-query';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { deleteForm, getForm, updateForm } from '../api.ts';
import { EmbedCode } from '../components/embed-code.tsx';
import { FormBuilder } from '../components/form-builder.tsx';
import { bodyOf, draftOf, type Draft } from '../components/form-model.ts';

/** One form: its counts, the builder with its live preview, the embed code to copy; delete it. */
export function FormPage({ id }: { id: string }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const cache = useProjectCache();
  const state = useProjectQuery(['forms', id], (client) => getForm(client, id));
  const remove = useMutation({
    mutationFn: () => deleteForm(api, id),
    onSuccess: () => {
      navigate('/forms');
      cache.forget(['forms', id]);
      void cache.invalidate(['forms']);
    },
  });
  const save = async (draft: Draft) => {
    cache.set(['forms', id], await updateForm(api, id, bodyOf(draft)));
    void cache.invalidate(['forms']);
  };
  return (
    <AsyncView state={state}>
      {(form) => (
        <>
          <PageHeader title={form.name} back={['/forms', 'Forms']} id={{ noun: 'Form', value: form.id }}>
            {canEdit && (
              <ConfirmButton label="Delete form" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
            )}
          </PageHeader>
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <dl className="form-counts">
            <div>
              <dt>Submissions</dt>
              <dd>{form.submissions.toLocaleString()}</dd>
            </div>
            <div>
              <dt>Confirmed</dt>
              <dd>{form.doubleOptIn ? form.confirmed.toLocaleString() : '—'}</dd>
            </div>
            <div>
              <dt>Spam caught</dt>
              <dd>{form.spam.toLocaleString()}</dd>
            </div>
          </dl>
          <EmbedCode id={form.id} url={form.url} />
          <ReadOnly when={!canEdit}>
            <FormBuilder
              key={form.updatedAt}
              initial={draftOf(form)}
              submitLabel="Save form"
              onSubmit={save}
              readOnly={!canEdit}
            />
          </ReadOnly>
        </>
      )}
    </AsyncView>
  );
}

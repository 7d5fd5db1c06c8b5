import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { deleteTemplate, getTemplate, type Template } from '../api.ts';
import { TemplateEditor } from '../components/template-editor.tsx';
import { VersionsPanel } from '../components/versions-panel.tsx';
import { TemplateCheck } from '../components/template-check.tsx';

const DEFAULT_SAMPLE = { firstName: 'Ada' };

/** Which version sends use, and whether a draft waits to be published. */
function PublishedState({ template }: { template: Template }) {
  return (
    <p className="publish-state" data-testid="publish-state">
      {template.version > 0 ? (
        <>
          Version <strong>{template.version}</strong> is live
          {template.publishedAt && `, published ${formatDateTime(template.publishedAt)}`}
          {template.publishedBy && ` by ${template.publishedBy.label}`}.
        </>
      ) : (
        <>Not published yet: sends cannot use it.</>
      )}{' '}
      {template.hasUnpublishedChanges && (
        <span className="badge badge-wait" data-testid="unpublished-changes">
          Unpublished changes
        </span>
      )}
    </p>
  );
}

/**
 * A template: editor (HTML, MJML or blocks, translations, layout), live preview rendered by the server, drafts and
 * their publishing, versions, test send. `id` "new" creates one.
 */
export function TemplatePage({ id }: { id: string }) {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const isNew = id === 'new';
  const state = useProjectQuery(['templates', id], (client) => getTemplate(client, id), { enabled: !isNew });
  const [sample, setSample] = useState<Record<string, unknown> | null>(null);
  // A restored version replaces what the editor holds: the editor opens again on it.
  const [opening, setOpening] = useState(0);
  const remove = useMutation({
    mutationFn: () => deleteTemplate(api, id),
    onSuccess: () => {
      navigate('/templates');
      cache.forget(['templates', id]);
      void cache.invalidate(['templates']);
    },
  });
  const saved = (template: Template) => {
    cache.set(['templates', template.id], template);
    void cache.invalidate(['templates']);
  };
  const restored = (template: Template) => {
    saved(template);
    setOpening((n) => n + 1);
  };
  if (isNew) {
    return (
      <>
        <PageHeader title="New template" back={['/templates', 'Templates']} />
        <TemplateEditor template={null} sample={sample ?? DEFAULT_SAMPLE} setSample={setSample} onSaved={saved} />
      </>
    );
  }
  return (
    <AsyncView state={state}>
      {(template) => (
        <>
          <PageHeader
            title={template.name}
            back={['/templates', 'Templates']}
            id={{ noun: 'Template', value: template.id }}
          >
            {canEdit && (
              <ConfirmButton label="Delete template" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
            )}
          </PageHeader>
          <PublishedState template={template} />
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <TemplateEditor
            key={`${template.id}:${opening}`}
            template={template}
            sample={sample ?? template.sampleData ?? DEFAULT_SAMPLE}
            setSample={setSample}
            onSaved={saved}
          />
          {canEdit && template.version > 0 && <TemplateCheck template={template} />}
          <VersionsPanel template={template} canEdit={canEdit} onRestored={restored} />
        </>
      )}
    </AsyncView>
  );
}

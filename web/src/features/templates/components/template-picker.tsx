import { useProjectQuery } from '../../../shared/api/queries.ts';
import { Link } from '../../../shared/router.tsx';
import { getTemplate, listTemplates, type Template } from '../api.ts';

const PICKABLE = { limit: 100 } as const;

/** "Start from a template": the project's published templates (a draft-only one has nothing to copy). */
export function TemplatePicker({
  id,
  value,
  onPick,
}: {
  id: string;
  /** The picked template's id ('' for none). */
  value: string;
  onPick: (template: Template | null) => void;
}) {
  const list = useProjectQuery(['templates', 'list', PICKABLE], (api) => listTemplates(api, PICKABLE));
  const templates = (list.data?.items ?? []).filter((t) => t.version > 0);
  return (
    <div className="field">
      <label htmlFor={id}>Start from a template</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onPick(templates.find((t) => t.id === e.target.value) ?? null)}
        disabled={!list.data}
      >
        <option value="">None: write it here</option>
        {templates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name} (version {t.version})
          </option>
        ))}
      </select>
      <p className="hint">
        Copies the template’s published subject, content, sender, layout and translations; change them here after.
      </p>
    </div>
  );
}

/** Where a message came from: "From template X, version N" (the template may have been deleted since). */
export function TemplateOrigin({ templateId, version }: { templateId: string; version: number | null }) {
  const template = useProjectQuery(['templates', templateId], (api) => getTemplate(api, templateId));
  return (
    <p className="hint template-origin" data-testid="template-origin">
      From template{' '}
      {template.data ? (
        <Link to={`/templates/${templateId}`}>{template.data.name}</Link>
      ) : template.error ? (
        'that was deleted'
      ) : (
        '…'
      )}
      {version !== null && `, version ${version}`}.
    </p>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Template, TemplateType } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { JsonField } from '../../../shared/ui/json-field.tsx';
import { MailFrame } from '../../../shared/ui/mail-frame.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { createTemplate, deleteTemplate, getTemplate, updateTemplate } from '../api.ts';
import { TemplatePreview } from '../components/template-preview.tsx';
import { PreviewContact } from '../components/preview-contact.tsx';
import { TestSend } from '../components/test-send.tsx';

const BLANK: Template = {
  id: '',
  name: '',
  subject: '',
  type: 'TRANSACTIONAL',
  from: null,
  fromName: null,
  replyTo: null,
  sampleData: null,
  createdAt: '',
  updatedAt: '',
  body: '<p>Hello {{ firstName ?? "there" }},</p>\n<p>…</p>',
};

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

interface EditorProps {
  template: Template;
  onSaved: (t: Template) => void;
  /** Sample data outlives the editor: creating a template reopens it under its new id. Saved with the template. */
  sample: Record<string, unknown>;
  setSample: (data: Record<string, unknown>) => void;
}

const DEFAULT_SAMPLE = { firstName: 'Ada' };

/**
 * A template as it is written, for a viewer: rendering a preview runs the template on the server, which is an
 * editor's action, so the body shows unrendered (variables as typed).
 */
function TemplateSource({ template }: { template: Template }) {
  return (
    <section className="panel preview" aria-labelledby="source-title">
      <h2 id="source-title">As written</h2>
      <p className="preview-subject">
        <span className="muted">Subject:</span> <strong>{template.subject}</strong>
      </p>
      <MailFrame title="Template body, unrendered" html={template.body} />
      <p className="hint">Variables show as written: rendered previews and test sends are for editors.</p>
    </section>
  );
}

function TemplateEditor({ template, onSaved, sample, setSample }: EditorProps) {
  const api = useApi();
  const canEdit = useCan('editor');
  const isNew = template.id === '';
  const [form, setForm] = useState(template);
  const [saved, setSaved] = useState(false);
  const [contact, setContact] = useState<{ id: string; email: string } | null>(null);
  const changeSample = (data: Record<string, unknown>) => {
    setSaved(false);
    setSample(data);
  };
  const set = <K extends keyof Template>(key: K, value: Template[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: form.name,
        subject: form.subject,
        body: form.body,
        type: form.type,
        from: orNull(form.from ?? ''),
        fromName: orNull(form.fromName ?? ''),
        replyTo: orNull(form.replyTo ?? ''),
        sampleData: sample,
      };
      return isNew ? createTemplate(api, body) : updateTemplate(api, template.id, body);
    },
    onSuccess: (result) => {
      setSaved(true);
      onSaved(result);
      if (isNew) navigate(`/templates/${result.id}`, { replace: true });
    },
  });
  const submit = submitWith(() => save.mutate());
  return (
    <div className="editor-layout">
      <form className="panel" onSubmit={submit} aria-label="Template">
        <div className="grid-2">
          <div className="field">
            <label htmlFor="t-name">Name</label>
            <input id="t-name" required value={form.name} onChange={(e) => set('name', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="t-type">Type</label>
            <select id="t-type" value={form.type} onChange={(e) => set('type', e.target.value as TemplateType)}>
              <option value="TRANSACTIONAL">Transactional</option>
              <option value="MARKETING">Marketing (unsubscribe link, tracking)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="t-from">From address</label>
            <input
              id="t-from"
              type="email"
              value={form.from ?? ''}
              placeholder="hello@mail.example.com"
              onChange={(e) => set('from', e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="t-from-name">From name</label>
            <input id="t-from-name" value={form.fromName ?? ''} onChange={(e) => set('fromName', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="t-reply">Reply-To</label>
            <input
              id="t-reply"
              type="email"
              value={form.replyTo ?? ''}
              onChange={(e) => set('replyTo', e.target.value)}
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor="t-subject">Subject</label>
          <input id="t-subject" required value={form.subject} onChange={(e) => set('subject', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="t-body">Body (HTML with Liquid)</label>
          <textarea
            id="t-body"
            className="code"
            rows={14}
            required
            spellCheck={false}
            value={form.body}
            onChange={(e) => set('body', e.target.value)}
          />
          <p className="hint">
            Variables: the contact’s data (<code>{'{{ firstName }}'}</code>), <code>{'{{ email }}'}</code>,{' '}
            <code>{'{{ unsubscribeUrl }}'}</code>; <code>{'{{ name ?? "there" }}'}</code> gives a fallback.
          </p>
        </div>
        {canEdit && (
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              {isNew ? 'Create template' : 'Save template'}
            </button>
            {saved && (
              <span role="status" className="ok">
                Saved
              </span>
            )}
          </div>
        )}
        {save.error !== null && <ErrorMessage error={save.error} />}
        <JsonField
          label="Sample data for the preview and test sends"
          value={sample}
          onChange={changeSample}
          rows={4}
          hint="Saved with the template."
        />
        {canEdit && <PreviewContact contact={contact} onChange={setContact} />}
      </form>
      <div className="stack">
        {canEdit ? (
          <TemplatePreview
            subject={form.subject}
            body={form.body}
            data={contact ? {} : sample}
            contactId={contact?.id}
          />
        ) : (
          <TemplateSource template={template} />
        )}
        {!isNew && canEdit && <TestSend template={form} data={sample} />}
      </div>
    </div>
  );
}

/** A template: editor, live preview rendered by the server, test send. `id` "new" creates one. */
export function TemplatePage({ id }: { id: string }) {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const isNew = id === 'new';
  const state = useProjectQuery(['templates', id], (client) => getTemplate(client, id), {
    enabled: !isNew,
    placeholderData: isNew ? BLANK : undefined,
  });
  const [sample, setSample] = useState<Record<string, unknown> | null>(null);
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
  return (
    <AsyncView state={state}>
      {(template) => (
        <>
          <PageHeader
            title={template.id ? template.name : 'New template'}
            back={['/templates', 'Templates']}
            {...(template.id ? { id: { noun: 'Template', value: template.id } } : {})}
          >
            {template.id && canEdit && (
              <ConfirmButton label="Delete template" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
            )}
          </PageHeader>
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <ReadOnly when={!canEdit}>
            <TemplateEditor
              key={template.id}
              template={template}
              onSaved={saved}
              sample={sample ?? template.sampleData ?? DEFAULT_SAMPLE}
              setSample={setSample}
            />
          </ReadOnly>
        </>
      )}
    </AsyncView>
  );
}

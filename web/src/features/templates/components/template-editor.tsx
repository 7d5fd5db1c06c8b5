import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { submitWith } from '../../../shared/forms.ts';
import { navigate } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { JsonField } from '../../../shared/ui/json-field.tsx';
import { MailFrame } from '../../../shared/ui/mail-frame.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { createTemplate, updateTemplate, type PreviewInput, type Template } from '../api.ts';
import { canonicalJson, FORMATS } from '../model/content.ts';
import { blankMessage, toContentInput, type MessageForm } from '../model/message.ts';
import {
  blankTemplateForm,
  contentChanged,
  createBody,
  draftBody,
  toTemplateForm,
  workingCopy,
  type TemplateForm,
} from '../model/template-form.ts';
import { FieldErrorsProvider, fieldsOf } from './field-errors.tsx';
import { FormatChoice } from './format-choice.tsx';
import { LayoutPicker } from './layout-picker.tsx';
import { PreviewPane, usePreview } from './preview-pane.tsx';
import { PublishControl } from './publish-dialog.tsx';
import { TemplateDetails } from './template-details.tsx';
import { TestSend, type TestMessage } from './test-send.tsx';
import { TranslationTabs } from './translation-tabs.tsx';

const VARIABLES_HINT = (
  <>
    Variables: the contact’s data (<code>{'{{ firstName }}'}</code>), <code>{'{{ email }}'}</code>,{' '}
    <code>{'{{ unsubscribeUrl }}'}</code>; <code>{'{{ name ?? "there" }}'}</code> gives a fallback.
  </>
);

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

/** What the preview renders of the message being written; null while there is nothing to render. */
function previewOf(message: MessageForm, data: Record<string, unknown>): PreviewInput | null {
  const { format, source } = message;
  const written =
    format === 'html'
      ? source.body.trim() !== ''
      : format === 'mjml'
        ? String(source.content ?? '').trim() !== ''
        : true;
  return message.subject.trim() && written ? { ...toContentInput(message), data } : null;
}

/** A test of the template as the editor holds it; MJML and blocks send their HTML as last saved. */
function testMessageOf(template: Template, form: TemplateForm): TestMessage {
  const { details, message } = form;
  const html = message.format === 'html';
  return {
    subject: message.subject,
    html: html ? message.source.body : workingCopy(template).body,
    from: details.from.trim() || null,
    fromName: details.fromName.trim() || null,
    replyTo: details.replyTo.trim() || null,
    note: html
      ? 'Sends the editor’s current subject and body with the sample data, as a transactional email.'
      : 'Sends the editor’s current subject and the content as last saved, with the sample data.',
  };
}

interface EditorProps {
  /** null: a new template. */
  template: Template | null;
  /** Sample data outlives the editor: creating a template reopens it under its new id. Saved with the template. */
  sample: Record<string, unknown>;
  setSample: (data: Record<string, unknown>) => void;
  onSaved: (t: Template) => void;
}

/**
 * A template's editor: details, format, layout, the message and its translations; a live preview beside it.
 * A new template is created published (version 1); later saves make a draft, published with Publish.
 */
export function TemplateEditor({ template, sample, setSample, onSaved }: EditorProps) {
  const api = useApi();
  const canEdit = useCan('editor');
  const opened = useMemo(() => (template ? toTemplateForm(template) : blankTemplateForm()), [template]);
  const [form, setForm] = useState<TemplateForm>(opened);
  const [saved, setSaved] = useState(false);
  const sampleChanged = canonicalJson(sample) !== canonicalJson(template?.sampleData ?? sample);
  const dirty =
    contentChanged(form, opened) ||
    form.details.name !== opened.details.name ||
    form.details.type !== opened.details.type ||
    sampleChanged;
  const save = useMutation({
    mutationFn: () =>
      template
        ? updateTemplate(api, template.id, draftBody(form, opened, sample))
        : createTemplate(api, createBody(form, sample)),
    onSuccess: (result) => {
      setSaved(true);
      onSaved(result);
      if (!template) navigate(`/templates/${result.id}`, { replace: true });
    },
  });
  const change = (next: Partial<TemplateForm>) => {
    setSaved(false);
    // What a save refused is being changed: its problems are the live preview's to tell now.
    save.reset();
    setForm((f) => ({ ...f, ...next }));
  };
  const tags = form.message.translations.map((t) => t.tag);
  const preview = usePreview(canEdit ? previewOf(form.message, sample) : null, tags);
  const submit = submitWith(() => save.mutate());
  const format = FORMATS.find((f) => f.value === form.message.format)!;
  // Liquid problems of a subject or an HTML body are listed once in the preview, their fields only marked; the others
  // (a block's field, the MJML source with a way to its line) show at their fields, as a save's do.
  const previewErrors = fieldsOf(preview.query.error);
  const inPreview = (field: string) => /^(translations\.[^.]+\.)?(subject|body)$/.test(field);
  // A save refused for the problems the preview lists says so in a word, not by repeating them.
  const saveErrors = fieldsOf(save.error).filter(
    (e) => !previewErrors.some((p) => p.field === e.field && p.message === e.message),
  );
  const refusedForPreviewProblems = save.error !== null && saveErrors.length === 0 && fieldsOf(save.error).length > 0;
  return (
    <FieldErrorsProvider
      errors={[...saveErrors, ...previewErrors.filter((e) => !inPreview(e.field))]}
      marked={previewErrors.filter((e) => inPreview(e.field))}
    >
      <div className="template-workspace">
        <form className="panel" onSubmit={submit} aria-label="Template">
          <ReadOnly when={!canEdit}>
            <TemplateDetails value={form.details} onChange={(details) => change({ details })} />
            <div className="grid-2">
              {template ? (
                <div className="field">
                  <span className="label">Format</span>
                  <p className="format-shown">
                    <strong>{format.label}</strong> <span className="hint">{format.hint}</span>
                  </p>
                </div>
              ) : (
                <FormatChoice
                  name="t-format"
                  value={form.message.format}
                  onChange={(f) => change({ message: blankMessage(f, form.message.subject) })}
                />
              )}
              <LayoutPicker
                id="t-layout"
                value={form.message.layoutId}
                format={form.message.format}
                savedDefault={opened.message.layoutId === undefined}
                onChange={(layoutId) => change({ message: { ...form.message, layoutId } })}
              />
            </div>
          </ReadOnly>
          <TranslationTabs
            value={form.message}
            onChange={(message) => change({ message })}
            idPrefix="t-"
            readOnly={!canEdit}
            htmlHint={VARIABLES_HINT}
          />
          <ReadOnly when={!canEdit}>
            <JsonField
              label="Sample data for the preview and test sends"
              value={sample}
              onChange={(data) => {
                setSaved(false);
                setSample(data);
              }}
              rows={4}
              hint="Saved with the template."
            />
          </ReadOnly>
          {canEdit && (
            <div className="actions">
              <button type="submit" disabled={save.isPending}>
                {template ? 'Save draft' : 'Create template'}
              </button>
              {template && (
                <PublishControl
                  template={template}
                  dirty={dirty}
                  saveDraft={() => save.mutateAsync()}
                  onPublished={onSaved}
                />
              )}
              {saved && !dirty && (
                <span role="status" className="ok">
                  {template?.hasUnpublishedChanges ? 'Saved as a draft' : 'Saved'}
                </span>
              )}
              {dirty && template && <span className="muted">Unsaved changes</span>}
            </div>
          )}
          {!template && canEdit && (
            <p className="hint">Creating it publishes version 1; later changes are saved as a draft until published.</p>
          )}
          {refusedForPreviewProblems ? (
            <p className="field-error" role="alert">
              Not saved: fix the problems the preview lists.
            </p>
          ) : (
            save.error !== null && <ErrorMessage error={save.error} />
          )}
        </form>
        <div className="stack">
          {canEdit ? (
            <PreviewPane preview={preview} listedAtField={(field) => !inPreview(field)} />
          ) : (
            template && <TemplateSource template={template} />
          )}
          {template && canEdit && <TestSend message={testMessageOf(template, form)} data={sample} />}
        </div>
      </div>
    </FieldErrorsProvider>
  );
}

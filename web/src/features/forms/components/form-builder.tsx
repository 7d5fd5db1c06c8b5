import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { listSegments } from '../../segments/api.ts';
import { listTopics } from '../../topics/api.ts';
import { FieldEditor } from './field-editor.tsx';
import type { Draft } from './form-model.ts';
import { FormPreview } from './form-preview.tsx';

/**
 * The form builder: fields (add, remove, reorder), what a submission subscribes to, how the page answers, and a
 * live preview of the hosted page beside it. `readOnly`: viewers see it without buttons.
 */
export function FormBuilder({
  initial,
  submitLabel,
  onSubmit,
  readOnly = false,
}: {
  initial: Draft;
  submitLabel: string;
  onSubmit: (draft: Draft) => Promise<void>;
  readOnly?: boolean;
}) {
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const topics = useProjectQuery(['topics', 'list', { limit: 100 }], (c) => listTopics(c, { limit: 100 }));
  const segments = useProjectQuery(['segments', 'list', { limit: 100 }], (c) => listSegments(c, { limit: 100 }));
  const lists = (segments.data?.items ?? []).filter((s) => s.type === 'STATIC');
  const save = useMutation({
    mutationFn: () => onSubmit(draft),
    onMutate: () => setSaved(false),
    onSuccess: () => setSaved(true),
  });
  const text = (key: 'successMessage' | 'redirectUrl' | 'locale' | 'consentText', label: string, hint: string) => (
    <div className="field">
      <label htmlFor={`form-${key}`}>{label}</label>
      <input id={`form-${key}`} value={draft[key]} onChange={(e) => set({ [key]: e.target.value })} />
      <p className="hint">{hint}</p>
    </div>
  );
  return (
    <div className="form-builder">
      <form className="panel" onSubmit={submitWith(() => save.mutate())} aria-label="Form builder">
        <div className="field">
          <label htmlFor="form-name">Name</label>
          <input
            id="form-name"
            required
            maxLength={200}
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
          />
        </div>
        <FieldEditor fields={draft.fields} onChange={(fields) => set({ fields })} readOnly={readOnly} />
        <fieldset>
          <legend>Topics chosen in</legend>
          <div className="checkbox-grid">
            {(topics.data?.items ?? []).map((t) => (
              <label key={t.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={draft.topicIds.includes(t.id)}
                  onChange={(e) =>
                    set({
                      topicIds: e.target.checked ? [...draft.topicIds, t.id] : draft.topicIds.filter((x) => x !== t.id),
                    })
                  }
                />{' '}
                {t.name}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid-2">
          <div className="field">
            <label htmlFor="form-list">Add to list</label>
            <select id="form-list" value={draft.segmentId} onChange={(e) => set({ segmentId: e.target.value })}>
              <option value="">No list</option>
              {lists.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="form-captcha">Bot check</label>
            <select
              id="form-captcha"
              value={draft.captcha}
              onChange={(e) => set({ captcha: e.target.value as Draft['captcha'] })}
            >
              <option value="none">Honeypot only</option>
              <option value="pow">Honeypot and proof of work</option>
            </select>
          </div>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={draft.doubleOptIn} onChange={(e) => set({ doubleOptIn: e.target.checked })} />
          {' Double opt-in (send the project’s confirmation email; subscribe once confirmed)'}
        </label>
        <div className="grid-2">
          {text('successMessage', 'Success message', 'Shown after a submission (without a redirect).')}
          {text('redirectUrl', 'Redirect URL', 'http or https; a browser goes there after a submission.')}
          {text('locale', 'Language', "A tag such as de or pt-BR; empty: the visitor's browser language.")}
          {text('consentText', 'Consent text', 'Shown by the button and kept as what the person agreed to.')}
        </div>
        {!readOnly && (
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              {submitLabel}
            </button>
            {saved && save.error === null && (
              <span role="status" className="ok">
                Saved
              </span>
            )}
          </div>
        )}
        {save.error !== null && <ErrorMessage error={save.error} />}
      </form>
      <FormPreview draft={draft} />
    </div>
  );
}

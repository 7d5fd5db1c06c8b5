import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { ApiError } from '../../../shared/api/client.ts';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { submitWith } from '../../../shared/forms.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { createLayout, deleteLayout, getLayout, LAYOUTS, setDefaultLayout, updateLayout, type Layout } from '../api.ts';

type Form = Pick<Layout, 'name' | 'format' | 'body'>;

/** What a new layout of each format starts with: web-safe fonts, so no font is fetched from another host. */
const STARTERS: Record<Layout['format'], string> = {
  html: `<!doctype html>
<html>
  <body style="margin:0;background:#f5f6f8">
    <div style="max-width:600px;margin:0 auto;padding:24px;background:#ffffff;font-family:Helvetica,Arial,sans-serif">
      {{ content }}
      <p style="color:#888888;font-size:12px">Sent by Acme</p>
    </div>
  </body>
</html>
`,
  mjml: `<mjml>
  <mj-head>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f5f6f8">
    <mj-section>
      <mj-column>
        <mj-text font-size="18px" font-weight="bold">Acme</mj-text>
      </mj-column>
    </mj-section>
    {{ content }}
    <mj-section>
      <mj-column>
        <mj-text font-size="12px" color="#888888">Sent by Acme</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`,
};

const fieldError = (error: unknown, field: string) =>
  error instanceof ApiError ? (error.fields.find((f) => f.field === field)?.message ?? null) : null;

function LayoutForm({ layout, onSaved }: { layout: Layout | null; onSaved: (l: Layout) => void }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const [form, setForm] = useState<Form>(() => layout ?? { name: '', format: 'mjml', body: STARTERS.mjml });
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const save = useMutation({
    mutationFn: () => (layout ? updateLayout(api, layout.id, form) : createLayout(api, form)),
    onSuccess: (result) => {
      setSaved(true);
      onSaved(result);
      if (!layout) navigate(`/layouts/${result.id}`, { replace: true });
    },
  });
  const bodyProblem = fieldError(save.error, 'body');
  return (
    <form className="panel" onSubmit={submitWith(() => save.mutate())} aria-label="Layout">
      <ReadOnly when={!canEdit}>
        <div className="grid-2">
          <div className="field">
            <label htmlFor="l-name">Name</label>
            <input id="l-name" required value={form.name} onChange={(e) => set('name', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="l-format">Format</label>
            <select
              id="l-format"
              value={form.format}
              onChange={(e) => {
                const format = e.target.value as Layout['format'];
                // A starter still untouched follows the format; a body written stays.
                set('body', form.body === STARTERS[form.format] ? STARTERS[format] : form.body);
                set('format', format);
              }}
            >
              <option value="mjml">MJML (frames MJML and block messages)</option>
              <option value="html">HTML (frames HTML messages)</option>
            </select>
          </div>
        </div>
        <div className="field">
          <label htmlFor="l-body">Layout source</label>
          <textarea
            id="l-body"
            className="code"
            rows={18}
            required
            spellCheck={false}
            value={form.body}
            aria-invalid={bodyProblem !== null || undefined}
            aria-describedby="l-body-note"
            onChange={(e) => set('body', e.target.value)}
          />
          <p className="hint" id="l-body-note">
            Write <code>{'{{ content }}'}</code> exactly once, where each message goes
            {form.format === 'mjml' ? ': directly inside <mj-body>, where sections go (not inside mj-text).' : '.'}{' '}
            Changing a layout compiles the templates using it again.
          </p>
          {bodyProblem && <p className="field-error">{bodyProblem}</p>}
        </div>
      </ReadOnly>
      {canEdit && (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {layout ? 'Save layout' : 'Create layout'}
          </button>
          {saved && (
            <span role="status" className="ok">
              Saved
            </span>
          )}
        </div>
      )}
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}

/** A layout: its name, format and source; delete (refused while in use) and make it the project's default. */
export function LayoutPage({ id }: { id: string }) {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const isNew = id === 'new';
  const state = useProjectQuery([...LAYOUTS, id], (client) => getLayout(client, id), { enabled: !isNew });
  // A layout change compiles templates and campaigns again: their answers are stale too.
  const changed = (layout?: Layout) => {
    if (layout) cache.set([...LAYOUTS, layout.id], layout);
    void cache.invalidate(['templates']);
    void cache.invalidate(['campaigns']);
  };
  const remove = useMutation({
    mutationFn: () => deleteLayout(api, id),
    onSuccess: () => {
      navigate('/layouts');
      cache.forget([...LAYOUTS, id]);
      changed();
    },
  });
  const makeDefault = useMutation({
    mutationFn: (on: boolean) => setDefaultLayout(api, on ? id : null),
    onSuccess: () => changed(),
  });
  if (isNew) {
    return (
      <>
        <PageHeader title="New layout" back={['/layouts', 'Layouts']} />
        <LayoutForm layout={null} onSaved={changed} />
      </>
    );
  }
  return (
    <AsyncView state={state}>
      {(layout) => (
        <>
          <PageHeader title={layout.name} back={['/layouts', 'Layouts']} id={{ noun: 'Layout', value: layout.id }}>
            {layout.isDefault && <span className="badge badge-good">Default</span>}
            {canEdit && (
              <button
                type="button"
                className="secondary"
                disabled={makeDefault.isPending}
                onClick={() => makeDefault.mutate(!layout.isDefault)}
              >
                {layout.isDefault ? 'Stop using as default' : 'Make default'}
              </button>
            )}
            {canEdit && (
              <ConfirmButton label="Delete layout" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
            )}
          </PageHeader>
          {[remove, makeDefault].map((m, i) => m.error !== null && <ErrorMessage key={i} error={m.error} />)}
          <LayoutForm key={layout.id} layout={layout} onSaved={changed} />
        </>
      )}
    </AsyncView>
  );
}

import { keepPreviousData } from '@tanstack/react-query';
import { Monitor, Smartphone } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { useDebounced } from '../../../shared/hooks/use-debounced.ts';
import { ApiError, type FieldError } from '../../../shared/api/client.ts';
import { ErrorMessage, Loading } from '../../../shared/ui/async-state.tsx';
import { FormatSwitch, type MailFormat } from '../../../shared/ui/format-switch.tsx';
import { MailFrame } from '../../../shared/ui/mail-frame.tsx';
import { previewTemplate, type PreviewInput } from '../api.ts';
import { withoutRemoteStyles } from '../model/remote-styles.ts';
import { PreviewContact } from './preview-contact.tsx';

type Picked = { id: string; email: string } | null;

/**
 * The message rendered by the server (POST /templates/preview) as the author writes it, refreshed once typing
 * pauses: in one of its languages, with the sample data or as one contact. `input` null: nothing to render yet.
 */
export function usePreview(input: PreviewInput | null, locales: readonly string[]) {
  const [locale, setLocale] = useState('');
  const [contact, setContact] = useState<Picked>(null);
  const language = locales.includes(locale) ? locale : '';
  const request = input && {
    ...input,
    ...(language ? { locale: language } : {}),
    ...(contact ? { contactId: contact.id, data: {} } : {}),
  };
  const settled = useDebounced(request ? JSON.stringify(request) : null, 400);
  const query = useProjectQuery(
    ['templates', 'preview', settled],
    (api) => (settled === null ? Promise.resolve(null) : previewTemplate(api, JSON.parse(settled) as PreviewInput)),
    { placeholderData: keepPreviousData },
  );
  return { query, locale: language, setLocale, contact, setContact, locales };
}

export type PreviewState = ReturnType<typeof usePreview>;

/** The rendered message side by side at desktop and phone width (375 px), or its text part. */
function Devices({ html: rendered, text, view }: { html: string; text: string; view: MailFormat }) {
  const { html, removed } = useMemo(() => withoutRemoteStyles(rendered), [rendered]);
  if (view === 'text') return <pre className="preview-text">{text}</pre>;
  return (
    <div className="preview-devices">
      {removed && <p className="hint devices-note">Web fonts from other hosts are not loaded in the preview.</p>}
      <figure className="device device-desktop">
        <figcaption>
          <Monitor className="icon" aria-hidden="true" /> Desktop
        </figcaption>
        <MailFrame title="Rendered HTML" html={html} />
      </figure>
      <figure className="device device-phone">
        <figcaption>
          <Smartphone className="icon" aria-hidden="true" /> Phone, 375 px
        </figcaption>
        <div className="device-screen">
          <MailFrame title="Rendered HTML, phone width" html={html} />
        </div>
      </figure>
    </div>
  );
}

/** A field a preview's 422 names, as the author knows it: "Subject", "Body", "Subject (de)". */
function fieldLabel(field: string): string {
  const [, tag, rest] = /^translations\.([^.]+)\.(.+)$/.exec(field) ?? [null, null, field];
  const name = rest === 'subject' ? 'Subject' : rest === 'body' ? 'Body' : rest === 'content' ? 'Content' : rest;
  return tag ? `${name} (${tag})` : name;
}

/**
 * Why the preview cannot render: each problem once, under the name of its field, with its line and column where the
 * template language gives them (an error's message and its field list would otherwise say the same thing twice).
 * Problems a field lists itself (`listedAtField`) are left to it.
 */
function PreviewProblems({ error, listedAtField }: { error: unknown; listedAtField: (field: string) => boolean }) {
  const fields = error instanceof ApiError && error.status === 422 ? error.fields : [];
  if (fields.length === 0) return <ErrorMessage error={error} />;
  const seen = new Map<string, FieldError>();
  for (const f of fields) if (!listedAtField(f.field)) seen.set(`${f.field}\n${f.message}`, f);
  if (seen.size === 0)
    return (
      <p className="state state-error" data-testid="preview-problems">
        The preview cannot render until the problems marked in the editor are fixed.
      </p>
    );
  return (
    <div className="state state-error" role="alert" data-testid="preview-problems">
      <ul className="preview-problems">
        {[...seen.values()].map((f) => (
          <li key={`${f.field}\n${f.message}`}>
            <strong>{fieldLabel(f.field)}</strong>: {f.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The live preview panel: language, contact, HTML or text, and the message as the server renders it. */
export function PreviewPane({
  preview,
  empty = 'Write a subject and some content to see them rendered.',
  title = 'Preview',
  listedAtField = () => false,
}: {
  preview: PreviewState;
  empty?: string;
  title?: string;
  /** The fields whose problems their control shows itself (a block's field; the MJML source, with its lines). */
  listedAtField?: (field: string) => boolean;
}) {
  const [view, setView] = useState<MailFormat>('html');
  const id = useId();
  const { query, locales } = preview;
  return (
    <section className="panel preview" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <div className="actions">
          {locales.length > 0 && (
            <div className="field inline-field">
              <label htmlFor={`${id}-locale`}>Language</label>
              <select id={`${id}-locale`} value={preview.locale} onChange={(e) => preview.setLocale(e.target.value)}>
                <option value="">{preview.contact ? 'The contact’s' : 'Default'}</option>
                {locales.map((tag) => (
                  <option key={tag} value={tag}>
                    {tag}
                  </option>
                ))}
              </select>
            </div>
          )}
          <FormatSwitch label="Preview format" value={view} onChange={setView} />
        </div>
      </div>
      <PreviewContact contact={preview.contact} onChange={preview.setContact} />
      {query.isFetching && <Loading label="Rendering…" />}
      {query.error && <PreviewProblems error={query.error} listedAtField={listedAtField} />}
      {query.data === null && !query.isFetching && <p className="muted">{empty}</p>}
      {query.data && !query.error && (
        <>
          <p className="preview-subject">
            <span className="muted">Subject:</span> <strong data-testid="preview-subject">{query.data.subject}</strong>
            {query.data.locale && <span className="badge badge-neutral">{query.data.locale}</span>}
          </p>
          {query.data.warnings.length > 0 && (
            <ul className="preview-warnings" aria-label="Warnings">
              {query.data.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
          <Devices html={query.data.html} text={query.data.text} view={view} />
        </>
      )}
    </section>
  );
}

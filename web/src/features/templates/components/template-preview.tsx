import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { useDebounced } from '../../../shared/hooks/use-debounced.ts';
import { ErrorMessage, Loading } from '../../../shared/ui/async-state.tsx';
import { MailFrame } from '../../../shared/ui/mail-frame.tsx';
import { previewTemplate } from '../api.ts';
import { FormatSwitch, type MailFormat } from '../../../shared/ui/format-switch.tsx';

/** The message as the server renders it (POST /templates/preview), refreshed as the author types. */
export function TemplatePreview({
  subject,
  body,
  data,
  contactId,
}: {
  subject: string;
  body: string;
  data: Record<string, unknown>;
  contactId?: string | undefined;
}) {
  const [view, setView] = useState<MailFormat>('html');
  const input = useDebounced(JSON.stringify({ subject, body, data, contactId }), 400);
  const preview = useProjectQuery(
    ['templates', 'preview', input],
    async (api) => {
      const parsed = JSON.parse(input) as {
        subject: string;
        body: string;
        data: Record<string, unknown>;
        contactId?: string;
      };
      if (!parsed.subject.trim() || !parsed.body.trim()) return null;
      return previewTemplate(api, parsed);
    },
    { placeholderData: keepPreviousData },
  );
  return (
    <section className="panel preview" aria-labelledby="preview-title">
      <div className="panel-head">
        <h2 id="preview-title">Preview</h2>
        <FormatSwitch label="Preview format" value={view} onChange={setView} />
      </div>
      {preview.isFetching && <Loading label="Rendering…" />}
      {preview.error && <ErrorMessage error={preview.error} />}
      {preview.data === null && !preview.isFetching && (
        <p className="muted">Write a subject and a body to see them rendered.</p>
      )}
      {preview.data && !preview.error && (
        <>
          <p className="preview-subject">
            <span className="muted">Subject:</span>{' '}
            <strong data-testid="preview-subject">{preview.data.subject}</strong>
          </p>
          {view === 'html' ? (
            <MailFrame title="Rendered HTML" html={preview.data.html} />
          ) : (
            <pre className="preview-text">{preview.data.text}</pre>
          )}
        </>
      )}
    </section>
  );
}

import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { useDebounced } from '../../../shared/hooks/use-debounced.ts';
import { ErrorMessage, Loading } from '../../../shared/ui/async-state.tsx';
import { previewTemplate } from '../api.ts';

/** The message as the server renders it (POST /templates/preview), refreshed as the author types. */
export function TemplatePreview({ subject, body, data }: { subject: string; body: string; data: Record<string, unknown> }) {
  const api = useApi();
  const [view, setView] = useState<'html' | 'text'>('html');
  const input = useDebounced(JSON.stringify({ subject, body, data }), 400);
  const preview = useAsync(async () => {
    const parsed = JSON.parse(input) as { subject: string; body: string; data: Record<string, unknown> };
    if (!parsed.subject.trim() || !parsed.body.trim()) return null;
    return previewTemplate(api, parsed);
  }, [api, input]);
  return (
    <section className="panel preview" aria-labelledby="preview-title">
      <div className="panel-head">
        <h2 id="preview-title">Preview</h2>
        <div className="segmented" role="group" aria-label="Preview format">
          <button type="button" aria-pressed={view === 'html'} onClick={() => setView('html')}>HTML</button>
          <button type="button" aria-pressed={view === 'text'} onClick={() => setView('text')}>Text</button>
        </div>
      </div>
      {preview.loading && <Loading label="Rendering…" />}
      {preview.error && <ErrorMessage error={preview.error} />}
      {preview.data === null && !preview.loading && <p className="muted">Write a subject and a body to see them rendered.</p>}
      {preview.data && !preview.error && (
        <>
          <p className="preview-subject"><span className="muted">Subject:</span> <strong data-testid="preview-subject">{preview.data.subject}</strong></p>
          {view === 'html'
            ? <iframe title="Rendered HTML" sandbox="" srcDoc={preview.data.html} className="preview-frame" />
            : <pre className="preview-text">{preview.data.text}</pre>}
        </>
      )}
    </section>
  );
}

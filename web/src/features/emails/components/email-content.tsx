import { useState } from 'react';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { MailFrame } from '../../../shared/ui/mail-frame.tsx';
import { getEmailContent } from '../api.ts';
import { FormatSwitch, type MailFormat } from '../../../shared/ui/format-switch.tsx';

const named = (email: string, name: string | null) => (name ? `${name} <${email}>` : email);

/** The email as its recipient reads it: the HTML in a sandboxed frame (no scripts), or the text part. */
export function EmailContent({ id }: { id: string }) {
  const [view, setView] = useState<MailFormat>('html');
  const state = useProjectQuery(['emails', id, 'content'], (api) => getEmailContent(api, id));
  return (
    <section className="panel preview" aria-labelledby="content-title">
      <div className="panel-head">
        <h2 id="content-title">Content</h2>
        <FormatSwitch label="Content format" value={view} onChange={setView} />
      </div>
      <AsyncView state={state}>
        {(content) => (
          <>
            <dl className="details">
              <dt>Subject</dt>
              <dd data-testid="content-subject">{content.subject}</dd>
              <dt>From</dt>
              <dd>{named(content.from, content.fromName)}</dd>
              <dt>To</dt>
              <dd>{named(content.to, content.toName)}</dd>
              {content.replyTo && (
                <>
                  <dt>Reply-To</dt>
                  <dd>{content.replyTo}</dd>
                </>
              )}
            </dl>
            {view === 'html' ? (
              <MailFrame title="Email as sent" html={content.html} />
            ) : (
              <pre className="preview-text">{content.text}</pre>
            )}
            <p className="hint">
              Rendered again from what was stored at send time; tracking links and the open pixel are left out.
            </p>
          </>
        )}
      </AsyncView>
    </section>
  );
}

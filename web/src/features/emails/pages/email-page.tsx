import { useState } from 'react';
import { useCan } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Link } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage, Loading } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { getEmail, getEmailSource, getEmailTimeline } from '../api.ts';
import { EmailContent } from '../components/email-content.tsx';
import { EmailSchedule } from '../components/email-schedule.tsx';
import { EmailShare } from '../components/email-share.tsx';
import { EmailTimeline } from '../components/email-timeline.tsx';
import { SourceLink, useSourceNames } from '../components/source-link.tsx';

/** The links the recipient clicked, each once, from the email's timeline (people's and machines' alike, marked). */
function ClickedLinks({ id }: { id: string }) {
  const state = useProjectQuery(['emails', id, 'timeline'], (api) => getEmailTimeline(api, id));
  const clicks = new Map<string, boolean>();
  for (const entry of state.data ?? []) {
    const url = entry.detail.url;
    if (entry.type !== 'clicked' || typeof url !== 'string') continue;
    clicks.set(url, clicks.get(url) === true || entry.detail.human === true);
  }
  if (clicks.size === 0) return <>none</>;
  return (
    <ul className="clicked-links" data-testid="clicked-links">
      {[...clicks].map(([url, human]) => (
        <li key={url}>
          <a href={url} target="_blank" rel="noreferrer noopener" className="wrap">
            {url}
          </a>
          {human ? '' : ' (by a machine only)'}
        </li>
      ))}
    </ul>
  );
}

/** The raw message (GET /emails/{id}/source): the outbox's copy, or built again from what is stored. */
function MessageSource({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const state = useProjectQuery(['emails', id, 'source'], (api) => getEmailSource(api, id), { enabled: open });
  return (
    <section className="panel" aria-labelledby="source-title">
      <div className="panel-head">
        <h2 id="source-title">Message source</h2>
        <button type="button" className="secondary" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide source' : 'Show source'}
        </button>
      </div>
      {open && state.isFetching && <Loading />}
      {open && state.error && <ErrorMessage error={state.error} />}
      {open && state.data && (
        <pre className="source" tabIndex={0} aria-label="Raw message">
          {state.data.source}
        </pre>
      )}
      {open && state.data?.rebuilt && (
        <p className="hint">
          Built again from what is stored: the same body and Message-ID; the Date header is the handoff time, so the
          DKIM signature differs from the one sent.
        </p>
      )}
      {!open && <p className="hint">The full MIME message, DKIM signature included.</p>}
    </section>
  );
}

export function EmailPage({ id }: { id: string }) {
  const state = useProjectQuery(['emails', id], (api) => getEmail(api, id));
  const names = useSourceNames();
  const canShare = useCan('editor');
  return (
    <AsyncView state={state}>
      {(email) => (
        <>
          <PageHeader title={email.subject} back={['/emails', 'Emails']} id={{ noun: 'Email', value: email.id }}>
            <StatusBadge status={email.status} />
          </PageHeader>
          <section className="panel">
            <dl className="details">
              <dt>To</dt>
              <dd>
                {Array.isArray(email.to) ? (
                  email.to.join(', ')
                ) : email.contactId ? (
                  <Link to={`/contacts/${email.contactId}`}>{email.to}</Link>
                ) : (
                  email.to
                )}
              </dd>
              {email.cc.length > 0 && (
                <>
                  <dt>Cc</dt>
                  <dd>{email.cc.join(', ')}</dd>
                </>
              )}
              {email.bcc.length > 0 && (
                <>
                  <dt>Bcc</dt>
                  <dd>{email.bcc.join(', ')}</dd>
                </>
              )}
              <dt>From</dt>
              <dd>{email.from}</dd>
              {email.replyTo.length > 0 && (
                <>
                  <dt>Reply-To</dt>
                  <dd>{email.replyTo.join(', ')}</dd>
                </>
              )}
              {email.tags.length > 0 && (
                <>
                  <dt>Tags</dt>
                  <dd>
                    {email.tags.map((t) => (
                      <code key={t.name} className="tag">
                        {t.name}: {t.value}
                      </code>
                    ))}
                  </dd>
                </>
              )}
              {email.scheduledAt && (
                <>
                  <dt>Scheduled for</dt>
                  <dd>{formatDateTime(email.scheduledAt)}</dd>
                </>
              )}
              <dt>Source</dt>
              <dd>
                <SourceLink source={email.source} names={names} />
              </dd>
              <dt>Status</dt>
              <dd>
                {email.status.toLowerCase()}
                {email.statusReason ? ` — ${email.statusReason}` : ''}
              </dd>
              <dt>Attempts</dt>
              <dd>
                {email.attempts}
                {email.lastError ? ` (last error: ${email.lastError})` : ''}
              </dd>
              <dt>Message-ID</dt>
              <dd>
                <code className="wrap">{email.messageId}</code>
              </dd>
              <dt>Created</dt>
              <dd>{formatDateTime(email.createdAt)}</dd>
              <dt>Sent</dt>
              <dd>{formatDateTime(email.sentAt)}</dd>
              <dt>Opens / clicks</dt>
              <dd>
                {email.opens} / {email.clicks}
              </dd>
              {email.clicks > 0 && (
                <>
                  <dt>Clicked links</dt>
                  <dd>
                    <ClickedLinks id={email.id} />
                  </dd>
                </>
              )}
            </dl>
          </section>
          <EmailSchedule email={email} />
          <EmailContent id={email.id} />
          <EmailTimeline id={email.id} />
          <div className="two-columns">
            <MessageSource id={email.id} />
            {canShare && <EmailShare id={email.id} />}
          </div>
        </>
      )}
    </AsyncView>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import type { Api } from '../../../shared/api/client.ts';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { saveBlob } from '../../../shared/download.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { deleteInbound, downloadAttachment, downloadRaw, getInbound } from '../api.ts';
import { UntrustedHtml } from '../components/untrusted-html.tsx';

function Attachment({
  api,
  id,
  attachment,
}: {
  api: Api;
  id: string;
  attachment: { id: string; filename: string | null; contentType: string; size: number };
}) {
  const get = useMutation({
    mutationFn: () => saveBlob(() => downloadAttachment(api, id, attachment.id), attachment.filename ?? 'attachment'),
  });
  return (
    <li>
      <button type="button" className="secondary" onClick={() => get.mutate()} disabled={get.isPending}>
        Download {attachment.filename ?? 'attachment'}
      </button>
      <span className="muted">
        {' '}
        {attachment.contentType}, {attachment.size.toLocaleString()} bytes
      </span>
      {get.error !== null && <ErrorMessage error={get.error} />}
    </li>
  );
}

/** The message's SPF, DKIM and DMARC verdicts. */
function Verdicts({ of: { spf, dkim, dmarc } }: { of: { spf: string; dkim: string; dmarc: string } }) {
  return (
    <>
      SPF <StatusBadge status={spf} /> DKIM <StatusBadge status={dkim} /> DMARC <StatusBadge status={dmarc} />
    </>
  );
}

/** One received message: who, the verdicts, the body (HTML sandboxed), attachments, headers. */
export function InboundMessagePage({ id }: { id: string }) {
  const api = useApi();
  const canDelete = useCan('admin');
  const cache = useProjectCache();
  const state = useProjectQuery(['inbound', id], (client) => getInbound(client, id));
  const remove = useMutation({
    mutationFn: () => deleteInbound(api, id),
    onSuccess: () => {
      navigate('/inbound');
      cache.forget(['inbound', id]);
      void cache.invalidate(['inbound']);
    },
  });
  const raw = useMutation({ mutationFn: () => saveBlob(() => downloadRaw(api, id), `${id}.eml`) });
  return (
    <AsyncView state={state}>
      {(m) => (
        <>
          <PageHeader title={m.subject || '(no subject)'} back={['/inbound', 'Inbound']}>
            <button
              type="button"
              className="secondary"
              onClick={() => raw.mutate()}
              disabled={m.expired || raw.isPending}
            >
              Download .eml
            </button>
            {canDelete && (
              <ConfirmButton label="Delete message" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
            )}
          </PageHeader>
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          {raw.error !== null && <ErrorMessage error={raw.error} />}
          <section className="panel">
            <dl className="details">
              <dt>From</dt>
              <dd>
                {m.contactId ? <Link to={`/contacts/${m.contactId}`}>{m.from.email}</Link> : m.from.email}
                {m.from.name ? ` (${m.from.name})` : ''}
              </dd>
              <dt>To</dt>
              <dd>{m.to.map((a) => a.email).join(', ') || '—'}</dd>
              {m.cc.length > 0 && (
                <>
                  <dt>Cc</dt>
                  <dd>{m.cc.map((a) => a.email).join(', ')}</dd>
                </>
              )}
              <dt>Received for</dt>
              <dd>{m.recipients.join(', ')}</dd>
              <dt>Received</dt>
              <dd>{formatDateTime(m.receivedAt)}</dd>
              <dt>Authentication</dt>
              <dd className="verdicts">
                <Verdicts of={m.authentication} />
              </dd>
              {m.inReplyToEmailId && (
                <>
                  <dt>In reply to</dt>
                  <dd>
                    <Link to={`/emails/${m.inReplyToEmailId}`}>the email you sent</Link>
                  </dd>
                </>
              )}
              <dt>Message-ID</dt>
              <dd>
                <code className="wrap">{m.messageId ?? '—'}</code>
              </dd>
              {m.expired && (
                <>
                  <dt>Retention</dt>
                  <dd>Raw message, attachments and body deleted {formatDateTime(m.expiredAt)}</dd>
                </>
              )}
            </dl>
          </section>
          {m.attachments.length > 0 && (
            <section className="panel" aria-labelledby="attachments-title">
              <h2 id="attachments-title">Attachments</h2>
              <ul className="attachments">
                {m.attachments.map((a) => (
                  <Attachment key={a.id} api={api} id={m.id} attachment={a} />
                ))}
              </ul>
            </section>
          )}
          <section className="panel" aria-labelledby="body-title">
            <h2 id="body-title">Message</h2>
            {(m.html ? m.truncated.html : m.truncated.text) && (
              <p className="hint">
                Only the first 1 MB of this message’s {m.html ? 'HTML' : 'text'} is shown; the raw message has all of
                it.
              </p>
            )}
            {m.html ? (
              <UntrustedHtml html={m.html} />
            ) : (
              <pre className="source">{m.text ?? (m.expired ? '(deleted after the retention period)' : '')}</pre>
            )}
          </section>
          <section className="panel">
            <details>
              <summary>Headers ({Object.keys(m.headers).length})</summary>
              <dl className="details headers">
                {Object.entries(m.headers).map(([name, value]) => (
                  <div key={name}>
                    <dt>{name}</dt>
                    <dd>
                      <code className="wrap">{value}</code>
                    </dd>
                  </div>
                ))}
              </dl>
            </details>
          </section>
        </>
      )}
    </AsyncView>
  );
}

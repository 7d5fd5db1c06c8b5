import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatFullTimestamp } from '../../../shared/format.ts';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { getLog } from '../api.ts';
import { StatusCode } from './request-log-page.tsx';

/** A body as kept, indented; a note when there was none or it was cut. */
function Body({ title, body, cut, bytes }: { title: string; body: unknown; cut: boolean; bytes?: number | null }) {
  const id = `${title.toLowerCase().replace(/\s+/g, '-')}-title`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {body === null ? (
        <p className="muted">No JSON body.</p>
      ) : (
        <pre className="source" tabIndex={0} aria-label={title}>
          {typeof body === 'string' ? body : JSON.stringify(body, null, 2)}
        </pre>
      )}
      {cut && (
        <p className="hint">Cut: only the first 10 KB are kept{bytes ? ` of ${bytes.toLocaleString()} bytes` : ''}.</p>
      )}
    </section>
  );
}

/** One API request: who made it, when, its answer, and both bodies pretty-printed. */
export function RequestLogEntryPage({ id }: { id: string }) {
  const state = useProjectQuery(['logs', id], (api) => getLog(api, id));
  return (
    <AsyncView state={state}>
      {(entry) => (
        <>
          <PageHeader
            title={`${entry.method} ${entry.path}`}
            back={['/logs', 'Request log']}
            id={{ noun: 'Request', value: entry.id }}
          >
            <StatusCode status={entry.status} />
          </PageHeader>
          <section className="panel">
            <dl className="details">
              <dt>When</dt>
              <dd>
                <time dateTime={entry.at}>{formatFullTimestamp(entry.at)}</time>
              </dd>
              <dt>Duration</dt>
              <dd>{entry.durationMs.toFixed(1)} ms</dd>
              <dt>Caller</dt>
              <dd>{entry.actor.label}</dd>
              <dt>Address</dt>
              <dd>{entry.ip ?? '—'}</dd>
              <dt>Client</dt>
              <dd>{entry.userAgent ?? '—'}</dd>
              <dt>Request id</dt>
              <dd>
                <code>{entry.requestId ?? '—'}</code>
              </dd>
            </dl>
          </section>
          <Body title="Request body" body={entry.requestBody} cut={entry.requestBodyCut} bytes={entry.requestBytes} />
          <Body
            title="Response body"
            body={entry.responseBody}
            cut={entry.responseBodyCut}
            bytes={entry.responseBytes}
          />
        </>
      )}
    </AsyncView>
  );
}

import type { Transport, TransportTest } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';

/** What the state of a transport means, for the title of its badge. */
const MEANING: Record<Transport['state'], string> = {
  HEALTHY: 'Connections work',
  DEGRADED: 'Connections have failed lately, not yet enough to stop using it',
  DOWN: 'Failed too many connections in a row: mail goes to a fallback, or waits, until a probe connects again',
};

export function TransportStateBadge({ transport }: { transport: Transport }) {
  return (
    <span title={MEANING[transport.state]} data-testid="transport-state">
      <StatusBadge status={transport.state} />
    </span>
  );
}

/** A transport's health: its state and since when, its last error, the next probe while down, and its failovers. */
export function TransportHealth({ transport }: { transport: Transport }) {
  return (
    <section className="panel" aria-labelledby="health-title">
      <h2 id="health-title">Health</h2>
      <dl className="details">
        <dt>State</dt>
        <dd>
          <TransportStateBadge transport={transport} /> <span className="muted">{MEANING[transport.state]}.</span>
        </dd>
        <dt>Since</dt>
        <dd>{formatDateTime(transport.since)}</dd>
        <dt>Last error</dt>
        <dd data-testid="last-error">
          {transport.lastError ? (
            <>
              <code className="wrap">{transport.lastError}</code>{' '}
              <span className="muted">({formatDateTime(transport.lastErrorAt)})</span>
            </>
          ) : (
            'None'
          )}
        </dd>
        {transport.state === 'DOWN' && (
          <>
            <dt>Next probe</dt>
            <dd>{formatDateTime(transport.retryAt)}</dd>
          </>
        )}
        <dt>Failovers</dt>
        <dd data-testid="failovers">
          {transport.failovers}
          {transport.lastFailoverAt ? ` · last ${formatDateTime(transport.lastFailoverAt)}` : ''}
        </dd>
      </dl>
    </section>
  );
}

/** The answer of a connection test: connected or not, in how long, and what the server said. */
export function TestResult({ result }: { result: TransportTest }) {
  return (
    <div
      role="status"
      className={result.ok ? 'notice test-result' : 'state state-error test-result'}
      data-testid="test-result"
    >
      <p>
        <strong>{result.ok ? 'Connection works' : 'Connection failed'}</strong> ({result.durationMs} ms):{' '}
        <span className="wrap">{result.message}</span>
      </p>
    </div>
  );
}

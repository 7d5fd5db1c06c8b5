import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorMessage, Loading } from './async-state.tsx';

export interface CheckIssue {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  fix: string;
}

const BADGE = { error: 'badge-bad', warning: 'badge-wait', info: 'badge-neutral' } as const;

/** A pre-send check's answer (a campaign's or a template's): its score, each issue with its fix, and "Check again". */
export function CheckPanel({
  check,
  errorsNote,
}: {
  check: UseQueryResult<{ score: number; issues: CheckIssue[] }, Error>;
  /** What errors mean where the check is shown. */
  errorsNote: string;
}) {
  if (check.isPending) return <Loading label="Checking…" />;
  if (check.error) return <ErrorMessage error={check.error} onRetry={() => void check.refetch()} />;
  const { score, issues } = check.data;
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  return (
    <div className="check-panel" aria-labelledby="check-title" role="region">
      <h3 id="check-title">
        Pre-send check: <span data-testid="check-score">{score}</span>/100
      </h3>
      {issues.length === 0 ? (
        <p className="ok">Nothing to fix.</p>
      ) : (
        <>
          <p>
            {errors > 0
              ? `${errors} error${errors === 1 ? '' : 's'}: ${errorsNote}`
              : 'Warnings do not stop a send; each says how to fix it.'}
          </p>
          <ul className="check-issues">
            {issues.map((issue) => (
              <li key={issue.code}>
                <span className={`badge ${BADGE[issue.severity]}`}>{issue.severity}</span> {issue.message}
                <div className="hint">Fix: {issue.fix}</div>
              </li>
            ))}
          </ul>
        </>
      )}
      <button type="button" className="secondary" onClick={() => void check.refetch()} disabled={check.isFetching}>
        Check again
      </button>
    </div>
  );
}

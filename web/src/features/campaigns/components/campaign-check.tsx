import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/session/session-context.tsx';
import type { Campaign } from '../../../shared/api/types.ts';
import { ErrorMessage, Loading } from '../../../shared/ui/async-state.tsx';
import { checkCampaign } from '../api.ts';

const BADGE = { error: 'badge-bad', warning: 'badge-wait', info: 'badge-neutral' } as const;

/**
 * The pre-send check of a campaign as it is now (asked again whenever it changes): its score and each issue with its
 * fix.
 */
export function CampaignCheck({ campaign }: { campaign: Campaign }) {
  const api = useApi();
  const check = useQuery({
    queryKey: ['campaign-check', campaign.id, campaign.updatedAt],
    queryFn: () => checkCampaign(api, campaign.id),
  });
  if (check.isPending) return <Loading label="Checking the campaign…" />;
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
              ? `${errors} error${errors === 1 ? '' : 's'} must be fixed before sending (or sent anyway).`
              : 'Warnings do not stop the send; each says how to fix it.'}
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

/** Whether the campaign's latest check found errors (a send would be refused unless forced). */
export function useCheckErrors(campaign: Campaign): boolean {
  const api = useApi();
  const check = useQuery({
    queryKey: ['campaign-check', campaign.id, campaign.updatedAt],
    queryFn: () => checkCampaign(api, campaign.id),
  });
  return (check.data?.issues ?? []).some((issue) => issue.severity === 'error');
}

import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/session/session-context.tsx';
import type { Campaign } from '../../../shared/api/types.ts';
import { CheckPanel } from '../../../shared/ui/check-panel.tsx';
import { checkCampaign } from '../api.ts';

/** The campaign's pre-send check as it is now, asked again whenever the campaign changes. */
function useCampaignCheck(campaign: Campaign) {
  const api = useApi();
  return useQuery({
    queryKey: ['campaign-check', campaign.id, campaign.updatedAt],
    queryFn: () => checkCampaign(api, campaign.id),
  });
}

/** The pre-send check above a campaign's send buttons: its score and each issue with its fix. */
export function CampaignCheck({ campaign }: { campaign: Campaign }) {
  return (
    <CheckPanel
      check={useCampaignCheck(campaign)}
      errorsNote="they must be fixed before sending (or the campaign sent anyway)."
    />
  );
}

/** Whether the campaign's latest check found errors (a send would be refused unless forced). */
export function useCheckErrors(campaign: Campaign): boolean {
  const check = useCampaignCheck(campaign);
  return (check.data?.issues ?? []).some((issue) => issue.severity === 'error');
}

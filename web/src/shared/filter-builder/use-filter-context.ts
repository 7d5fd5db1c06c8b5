import { useProjectQuery } from '../api/queries.ts';
import { listCampaignChoices, listEventNames, listSegmentChoices, listTopicChoices } from './api.ts';
import type { FilterContext } from './filter-builder.tsx';

/**
 * What a filter builder offers to pick from: the project's segments, campaigns, topics and the event names it has
 * seen.
 */
export function useFilterContext(selfId?: string): FilterContext {
  const segments = useProjectQuery(['segments', 'choices'], listSegmentChoices);
  const names = useProjectQuery(['events', 'names'], listEventNames);
  const campaigns = useProjectQuery(['campaigns', 'choices'], listCampaignChoices);
  const topics = useProjectQuery(['topics', 'choices'], listTopicChoices);
  return {
    segments: segments.data?.items ?? [],
    eventNames: names.data?.items.map((n) => n.name) ?? [],
    campaigns: campaigns.data?.items.map((c) => ({ id: c.id, name: c.name })) ?? [],
    topics: topics.data?.items ?? [],
    ...(selfId ? { selfId } : {}),
  };
}

import type { Api } from '../api/client.ts';
import { useAsync } from '../hooks/use-async.ts';
import { listCampaignChoices, listEventNames, listSegmentChoices, listTopicChoices } from './api.ts';
import type { FilterContext } from './filter-builder.tsx';

/** What a filter builder offers to pick from: the project's segments, campaigns, topics and the event names it has seen. */
export function useFilterContext(api: Api, selfId?: string): FilterContext {
  const state = useAsync(async () => {
    const [segments, names, campaigns, topics] = await Promise.all([listSegmentChoices(api), listEventNames(api), listCampaignChoices(api), listTopicChoices(api)]);
    return {
      segments: segments.items, eventNames: names.items.map((n) => n.name), campaigns: campaigns.items.map((c) => ({ id: c.id, name: c.name })), topics: topics.items,
    };
  }, [api]);
  const data = state.data;
  return { segments: data?.segments ?? [], eventNames: data?.eventNames ?? [], campaigns: data?.campaigns ?? [], topics: data?.topics ?? [], ...(selfId ? { selfId } : {}) };
}

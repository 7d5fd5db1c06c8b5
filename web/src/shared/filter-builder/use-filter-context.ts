import type { Api } from '../api/client.ts';
import { useAsync } from '../hooks/use-async.ts';
import { listCampaignChoices, listEventNames, listSegmentChoices } from './api.ts';
import type { FilterContext } from './filter-builder.tsx';

/** What a filter builder offers to pick from: the project's segments, campaigns and the event names it has seen. */
export function useFilterContext(api: Api, selfId?: string): FilterContext {
  const state = useAsync(async () => {
    const [segments, names, campaigns] = await Promise.all([listSegmentChoices(api), listEventNames(api), listCampaignChoices(api)]);
    return { segments: segments.items, eventNames: names.items.map((n) => n.name), campaigns: campaigns.items.map((c) => ({ id: c.id, name: c.name })) };
  }, [api]);
  return { segments: state.data?.segments ?? [], eventNames: state.data?.eventNames ?? [], campaigns: state.data?.campaigns ?? [], ...(selfId ? { selfId } : {}) };
}

import type { EventName, Segment } from '../api/types.ts';
import { useApi } from '../auth/session-context.tsx';
import { useAsync } from '../lib/use-async.ts';
import type { FilterContext } from './filter-builder.tsx';

/** What a filter builder offers to pick from: the project's segments and the event names it has seen. */
export function useFilterContext(selfId?: string): FilterContext {
  const api = useApi();
  const state = useAsync(async () => {
    const [segments, names] = await Promise.all([
      api.list<Segment>('/segments', { limit: 100 }),
      api.list<EventName>('/events/names', { limit: 100 }),
    ]);
    return { segments: segments.items, eventNames: names.items.map((n) => n.name) };
  }, [api]);
  return { segments: state.data?.segments ?? [], eventNames: state.data?.eventNames ?? [], ...(selfId ? { selfId } : {}) };
}

// The segments module's reference check: a topic stays while a segment's filter has a condition on it (without
// the topic, `notSubscribed` would match every contact and `subscribed` none).
import type { ReferenceCheck } from '../../context.types.ts';
import { segmentsNamingTopic } from './segments.repo.ts';

/** A topic named by a `{topic, operator}` condition (at any depth) of a segment's filter. */
export const topicInSegmentFilters: ReferenceCheck = async ({ db, projectId, id }) => {
  const named = await segmentsNamingTopic(db, projectId, id);
  if (named.length === 0) return null;
  const list = named.map((s) => `${JSON.stringify(s.name)} (${s.id})`).join(', ');
  return {
    message: `The topic is named in the filter of segment${named.length > 1 ? 's' : ''} ${list}`,
    suggestion: 'Take the topic condition out of those filters (PATCH /segments/{id}) or delete the segments first.',
  };
};

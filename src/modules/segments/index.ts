// The front door of the segments module: other modules import only what is exported here.
export type { Filter } from './filter.types.ts';
export { filterNames } from './filter.named.ts';
export { checkFilter, segmentIdsOf } from './filter.validate.ts';
export type { FilterRef, SegmentRef } from './filter.validate.ts';
export { filterPredicate, recipientPredicate } from './segments.audience.ts';
export { filterSchema } from './segments.schemas.ts';
export {
  countMatchingContacts,
  countMissingData,
  requireSegmentRefs,
  requireTrackedSegment,
} from './segments.service.ts';
export { segmentMembersPredicate } from './segments.service.ts';
export { addSegmentMembers, removeSegmentMembers, requireListSegment } from './segments.members.ts';
export {
  createSegment,
  deleteSegment,
  getSegment,
  listSegmentContacts,
  listSegments,
  updateSegment,
} from './segments.service.ts';

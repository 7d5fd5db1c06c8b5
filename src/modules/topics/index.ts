// The front door of the topics module: other modules import only what is exported here.
export {
  chooseTopics,
  findContactsOutOfTopic,
  findTopic,
  lockTopics,
  requireTopic,
  requireTopicIds,
  toTopicView,
} from './topics.service.ts';
export type { TopicRow } from './topics.service.ts';
export { listContactTopicChoices, listContactTopics } from './topics.service.ts';
export { createTopic, deleteTopic, getTopic, listTopics, setContactTopics, updateTopic } from './topics.service.ts';

import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';

export const topicSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    defaultSubscription: z.enum(['OPT_IN', 'OPT_OUT']).meta({
      description: 'OPT_IN: only contacts who chose in hear about it. OPT_OUT: everyone who did not choose out',
    }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Topic' });

export const createTopicBody = z.object({
  name: nameSchema(),
  description: z.string().max(2000).nullable().optional(),
  defaultSubscription: z.enum(['OPT_IN', 'OPT_OUT']),
});

export const updateTopicBody = z.object({
  name: nameSchema().optional(),
  description: z.string().max(2000).nullable().optional(),
  defaultSubscription: z
    .enum(['OPT_IN', 'OPT_OUT'])
    .optional()
    .meta({ description: 'Cannot change after create (409 when it differs)' }),
});

export const contactTopicSchema = z.object({
  topicId: z.string(),
  name: z.string(),
  subscribed: z.boolean().meta({ description: "The contact's choice, or the topic's default where it made none" }),
});

export const contactTopicsBody = z.object({
  topics: z
    .array(z.object({ id: z.string().max(64), subscribed: z.boolean() }))
    .min(1)
    .max(100),
});

/** What the API reference says about each topic route, by operationId. */
export const topicRouteDocs = {
  managePreferences:
    'The page behind {{manageUrl}}: the project\'s topics as checkboxes and "unsubscribe from everything" ' +
    '(or resubscribe), and pausing marketing mail for 2 weeks, 1 month or 3 months (or resuming it while paused). ' +
    'A GET never changes anything.',
  savePreferences:
    "The preference page's form (application/x-www-form-urlencoded): `action=save` with a `topic` field " +
    'per chosen topic, `action=unsubscribe` or `action=resubscribe`, `action=snooze` with `pause=2w`, `1m` or ' +
    '`3m` (14, 30 or 91 days), or `action=resume`. 403 when posted from another site.',
  deleteTopic:
    "Deletes the topic and every contact's choice for it. 409 while a draft, scheduled or sending " +
    'campaign is limited to it (set its topicId to another topic or null, or cancel it, first), or while ' +
    "a segment's filter, an unsent campaign's audienceFilter or a CONDITION step of a workflow in use " +
    'has a condition on it; sent and cancelled campaigns lose their topicId.',
  listContactTopics:
    "Every topic of the project with the contact's choice, or the topic's default where it chose nothing.",
  updateContactTopics:
    "Records the contact's choice for each topic given (others keep theirs); answers every topic as GET does.",
} as const;

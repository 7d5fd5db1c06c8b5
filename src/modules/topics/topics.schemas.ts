import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';

export const topicSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  defaultSubscription: z.enum(['OPT_IN', 'OPT_OUT']).meta({ description: 'OPT_IN: only contacts who chose in hear about it. OPT_OUT: everyone who did not choose out' }),
  createdAt: isoDate,
  updatedAt: isoDate,
}).meta({ id: 'Topic' });

export const createTopicBody = z.object({
  name: nameSchema(),
  description: z.string().max(2000).nullable().optional(),
  defaultSubscription: z.enum(['OPT_IN', 'OPT_OUT']),
});

export const updateTopicBody = z.object({
  name: nameSchema().optional(),
  description: z.string().max(2000).nullable().optional(),
  defaultSubscription: z.enum(['OPT_IN', 'OPT_OUT']).optional().meta({ description: 'Cannot change after create (409 when it differs)' }),
});

export const contactTopicSchema = z.object({
  topicId: z.string(),
  name: z.string(),
  subscribed: z.boolean().meta({ description: 'The contact\'s choice, or the topic\'s default where it made none' }),
});

export const contactTopicsBody = z.object({
  topics: z.array(z.object({ id: z.string().max(64), subscribed: z.boolean() })).min(1).max(100),
});

import { z } from 'zod';
import { parseIsoInstant } from '../../lib/dates.ts';
import { emailAddressSchema as address } from '../../lib/email-address.ts';
import { isoDate } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { nameSchema } from '../../lib/text.ts';
import { dataSchema } from '../contacts/index.ts';
import { filterSchema } from '../segments/index.ts';
import { singleLine } from '../templates/index.ts';

export const campaignStatus = z.enum(['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED']);
export const audienceType = z.enum(['ALL', 'SEGMENT', 'FILTERED']);

export const campaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
  from: z.string(),
  fromName: z.string().nullable(),
  replyTo: z.string().nullable(),
  type: audienceType.meta({ description: 'The same as audienceType' }),
  audienceType,
  segmentId: z.string().nullable(),
  audienceFilter: filterSchema.nullable(),
  status: campaignStatus,
  scheduledAt: isoDate.nullable(),
  sentAt: isoDate.nullable().meta({ description: 'When sending began' }),
  recipientCount: z.number().int().meta({
    description: 'DRAFT and SCHEDULED: the contacts the audience holds now (subscribed, not suppressed). Afterwards: the emails the send created.',
  }),
  createdAt: isoDate,
  updatedAt: isoDate,
}).meta({ id: 'Campaign' });

export const createCampaignBody = z.object({
  name: nameSchema(),
  description: z.string().max(2000).nullable().optional(),
  subject: singleLine(998).pipe(z.string().min(1)),
  body: z.string().min(1).max(1_000_000).meta({ description: 'HTML with Liquid variables: the contact\'s data, email, contact, unsubscribeUrl' }),
  from: address,
  fromName: singleLine(200).nullable().optional(),
  replyTo: address.nullable().optional(),
  audienceType,
  segmentId: z.string().nullable().optional().meta({ description: 'Required when audienceType is SEGMENT' }),
  audienceFilter: filterSchema.nullable().optional().meta({ description: 'Required when audienceType is FILTERED' }),
});

export const updateCampaignBody = createCampaignBody.partial();

export const listCampaignsQuery = paginationQuery.extend({ status: campaignStatus.optional() });

export const sendCampaignBody = z.object({
  scheduledFor: z.iso.datetime({ offset: true }).refine((value) => parseIsoInstant(value) !== null, { error: 'must be a date-time within the years 1–9999' }).nullable().optional()
    .meta({ description: 'A future time to send at; omitted or null = now. A past time is a 422.' }),
}).nullable().optional();

export const testCampaignBody = z.object({
  emails: z.array(address).min(1).max(10),
  contactId: z.string().optional().meta({ description: 'Render every test with this contact\'s data; otherwise an address that is a contact renders with its own data' }),
  data: dataSchema.optional().meta({ description: 'Sample variables, over the contact\'s data (the only data for an address that is no contact)' }),
});

export const testCampaignResult = z.object({
  emails: z.array(z.object({ to: z.string(), email: z.string(), status: z.enum(['QUEUED', 'SUPPRESSED']) })),
});

export const campaignStatsSchema = z.object({
  recipients: z.number().int(),
  sent: z.number().int().meta({ description: 'Handed to the mail server: SENT, DELIVERED, BOUNCED, COMPLAINED' }),
  delivered: z.number().int().meta({ description: 'Reported delivered by the provider (status DELIVERED; always 0 with the outbox or an SMTP relay)' }),
  opened: z.number().int(),
  clicked: z.number().int(),
  bounced: z.number().int(),
  complained: z.number().int(),
  unsubscribed: z.number().int().meta({ description: 'Recipients who unsubscribed through this campaign\'s email' }),
  failed: z.number().int(),
  openRate: z.number(),
  clickRate: z.number(),
  bounceRate: z.number(),
}).meta({ id: 'CampaignStats' });

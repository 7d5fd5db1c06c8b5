import { z } from 'zod';
import { parseIsoInstant } from '../../lib/dates.ts';
import { emailAddressSchema as address } from '../../lib/email-address.ts';
import { isoDate } from '../../lib/http.ts';
import { isCalendarDate } from '../../lib/time-zone.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { nameSchema } from '../../lib/text.ts';
import { dataSchema } from '../contacts/index.ts';
import { filterSchema } from '../segments/index.ts';
import { contentFields, contentFormat, singleLine, translationsSchema } from '../templates/index.ts';
import { VARIANT_IDS, waitSeconds } from './campaigns.variants.ts';

export const campaignStatus = z.enum(['DRAFT', 'SCHEDULED', 'SENDING', 'TESTING', 'PAUSED', 'SENT', 'CANCELLED']);

const variantId = z.enum(VARIANT_IDS);

/** One version of an A/B test as given: what it leaves out comes from the campaign. */
export const variantInput = z.object({
  subject: singleLine(998).pipe(z.string().min(1)).optional(),
  body: z.string().min(1).max(1_000_000).optional(),
  from: address.optional(),
  fromName: singleLine(200).nullable().optional(),
});

/** A variant as stored (the input's checks and transforms ran when it was saved; an answer only serialises it). */
const variantView = z.object({
  id: variantId,
  subject: z.string().optional(),
  body: z.string().optional(),
  from: z.string().optional(),
  fromName: z.string().nullable().optional(),
});

export const abTestSchema = z
  .object({
    testPercent: z
      .number()
      .int()
      .min(5)
      .max(50)
      .meta({ description: 'The share of the audience the test goes to (5–50), split evenly across the variants' }),
    metric: z
      .enum(['opens', 'clicks'])
      .meta({ description: 'The winner has the best rate of human opens or human clicks' }),
    waitFor: z
      .string()
      .refine((v) => waitSeconds(v) !== null, {
        error: 'must be a duration such as "30s", "30m", "4h", "1d" (at most 30 days)',
      })
      .meta({ description: 'How long after the test is sent the winner is picked: "30s", "30m", "4h", "1d", "1w"' }),
  })
  .meta({ id: 'AbTest' });
const localTimeField = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time of day HH:MM, 00:00–23:59' })
  .meta({ description: 'The wall-clock time each recipient gets it at, in their time zone', example: '09:00' });
const localDateField = z.string().refine(isCalendarDate, { error: 'must be a calendar date YYYY-MM-DD' }).meta({
  description: "The day, in each recipient's time zone; not a day already over everywhere",
  example: '2030-03-29',
});

/** A send at each recipient's local time: the wall-clock time and the day (in each recipient's time zone). */
export const sendAtSchema = z
  .object({ localTime: localTimeField, date: localDateField })
  .meta({ id: 'CampaignSendAt' });

/**
 * `sendAt` of a send: a local time and day (each recipient at that time in their zone), or `optimize` (each recipient
 * at their own best hour within the window, a holdout share at once).
 */
export const sendAtBodySchema = z
  .object({
    localTime: localTimeField.optional(),
    date: localDateField.optional(),
    optimize: z
      .object({
        within: z.string().meta({
          description: 'The window from the send: "1h" to "7d" (a week holds every hour of the week)',
          example: '24h',
        }),
      })
      .strict()
      .optional()
      .meta({ description: 'Send-time optimisation, instead of localTime and date' }),
    holdoutPercent: z
      .number()
      .int()
      .min(0)
      .max(50)
      .optional()
      .meta({ description: 'With optimize: the share of recipients (0–50 %, default 10) sent at once, to compare' }),
  })
  .superRefine((value, check) => {
    const issue = (path: string, message: string) => check.addIssue({ code: 'custom', message, path: [path] });
    if (value.optimize) {
      if (value.localTime !== undefined || value.date !== undefined)
        issue('optimize', 'give optimize, or localTime and date, not both');
      return;
    }
    if (value.localTime === undefined) issue('localTime', 'is required (or give optimize)');
    if (value.date === undefined) issue('date', 'is required (or give optimize)');
    if (value.holdoutPercent !== undefined) issue('holdoutPercent', 'only goes with optimize');
  })
  .meta({ id: 'CampaignSendAtBody' });

const sendTimeGroupSchema = z.object({
  recipients: z.number().int(),
  sent: z.number().int(),
  humanOpened: z.number().int(),
  humanClicked: z.number().int(),
  openRate: z.number().meta({ description: 'humanOpened over sent' }),
  clickRate: z.number().meta({ description: 'humanClicked over sent' }),
});

/** How a campaign's send-time optimisation was asked for (null: none). */
export const optimizeViewSchema = z
  .object({ within: z.string(), holdoutPercent: z.number().int() })
  .meta({ id: 'CampaignOptimize' });

export const audienceType = z.enum(['ALL', 'SEGMENT', 'FILTERED']);

export const campaignAction = z.enum([
  'update',
  'send',
  'unschedule',
  'pause',
  'resume',
  'cancel',
  'pickWinner',
  'delete',
  'duplicate',
  'test',
  'followUp',
]);

export const campaignSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    subject: z.string(),
    format: contentFormat,
    body: z.string().meta({ description: 'format html: the source; mjml and blocks: the compiled HTML' }),
    content: z.unknown().meta({ description: 'mjml: the MJML source; blocks: the block document; null for html' }),
    layoutId: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "The layout: an id, or null for none; absent: the project's default" }),
    translations: translationsSchema.nullable(),
    templateId: z.string().nullable().meta({ description: 'The template it was made from' }),
    templateVersion: z.number().int().nullable().meta({ description: "That template's version it copied" }),
    from: z.string(),
    fromName: z.string().nullable(),
    replyTo: z.string().nullable(),
    type: audienceType.meta({ description: 'The same as audienceType' }),
    audienceType,
    segmentId: z.string().nullable(),
    audienceFilter: filterSchema.nullable(),
    topicId: z.string().nullable().meta({ description: 'Only contacts in this topic receive it' }),
    ignoreFrequencyCap: z.boolean().meta({ description: "Sent even to contacts at the project's frequency cap" }),
    status: campaignStatus,
    pausedReason: z.string().nullable().meta({
      description: 'Why a PAUSED campaign paused itself (its bounce or complaint rate); null when paused by hand',
    }),
    waitingFor: z
      .enum(['warmup', 'throttle'])
      .nullable()
      .meta({
        description:
          "What a SENDING campaign's held mail waits for: `warmup`, the next UTC day of its sender domain's " +
          "warm-up (the day's cap is reached); `throttle`, its turn under a mailbox provider's rate. Null " +
          'otherwise',
      }),
    variants: z.array(variantView).nullable().meta({ description: "The A/B test's variants (null: no test)" }),
    abTest: abTestSchema.nullable(),
    testEndsAt: isoDate.nullable().meta({ description: "When the test's wait ends and the winner is picked" }),
    winnerVariantId: variantId
      .nullable()
      .meta({ description: 'The variant that goes (or went) to the rest of the audience' }),
    scheduledAt: isoDate.nullable().meta({
      description:
        "When it sends; for a send at local time, when the first time zone's turn comes " +
        '(its audience is resolved then)',
    }),
    sendAt: sendAtSchema
      .nullable()
      .meta({ description: "A send at each recipient's local time (null: one time for all)" }),
    optimize: optimizeViewSchema
      .nullable()
      .meta({ description: "A send at each recipient's best hour (send-time optimisation); null otherwise" }),
    sentAt: isoDate.nullable().meta({ description: 'When sending began' }),
    allowedActions: z.array(campaignAction).meta({
      description: 'What its status allows now (a role may still forbid it); `send` covers scheduling',
    }),
    recipientCount: z
      .number()
      .int()
      .meta({
        description:
          'DRAFT and SCHEDULED: the contacts the audience holds now (subscribed, not ' +
          'suppressed). Afterwards: the emails the send created.',
      }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Campaign' });

export const createCampaignBody = z.object({
  name: nameSchema(),
  description: z.string().max(2000).nullable().optional(),
  templateId: z
    .uuid()
    .optional()
    .meta({ description: "Start from a template: its published version's content, unless this request gives it" }),
  subject: singleLine(998).pipe(z.string().min(1)).optional(),
  ...contentFields,
  body: z
    .string()
    .min(1)
    .max(1_000_000)
    .optional()
    .meta({ description: 'format html: HTML with Liquid variables (contact data, email, unsubscribeUrl)' }),
  from: address.optional().meta({
    description:
      "The sender; without it, the template's, else the project's default sender (`defaultFrom` in settings)",
  }),
  fromName: singleLine(200).nullable().optional(),
  replyTo: address.nullable().optional(),
  audienceType,
  segmentId: z.string().nullable().optional().meta({ description: 'Required when audienceType is SEGMENT' }),
  audienceFilter: filterSchema.nullable().optional().meta({ description: 'Required when audienceType is FILTERED' }),
  variants: z
    .array(variantInput)
    .min(2)
    .max(5)
    .nullable()
    .optional()
    .meta({ description: 'An A/B test: 2–5 variants, with abTest. Null removes the test.' }),
  abTest: abTestSchema.nullable().optional(),
  topicId: z
    .string()
    .max(64)
    .nullable()
    .optional()
    .meta({
      description:
        "A topic: only the audience's contacts in it receive the campaign (OPT_IN: chose " +
        'in; OPT_OUT: did not choose out)',
    }),
  ignoreFrequencyCap: z
    .boolean()
    .optional()
    .meta({
      description:
        "Sent even to contacts who reached the project's frequency cap (its emails still count toward it); " +
        'default false',
    }),
});

export const updateCampaignBody = createCampaignBody.omit({ templateId: true }).partial();

export const listCampaignsQuery = paginationQuery.extend({ status: campaignStatus.optional() });

export const sendCampaignBody = z
  .object({
    force: z
      .boolean()
      .optional()
      .meta({
        description:
          'Send even though the pre-send check finds errors (POST /campaigns/{id}/check); without it such a ' +
          'send is a 409 CHECK_FAILED listing them.',
      }),
    scheduledFor: z.iso
      .datetime({ offset: true })
      .refine((value) => parseIsoInstant(value) !== null, { error: 'must be a date-time within the years 1–9999' })
      .nullable()
      .optional()
      .meta({ description: 'A future time to send at; omitted or null = now. A past time is a 422.' }),
    sendAt: sendAtBodySchema
      .nullable()
      .optional()
      .meta({
        description:
          'Instead of scheduledFor: each recipient gets it at `localTime` on `date` in ' +
          "their contact `data.timezone` (IANA), else in the project's time zone; " +
          'a time already past there goes at once. Or `{optimize: {within}, holdoutPercent}`: each recipient ' +
          'at the hour of the week they most often opened or clicked as a person, within the window from now ' +
          '(no history: 10:00 in their time zone), the holdout share at once. Neither is for an A/B test (422).',
      }),
  })
  .nullable()
  .optional();

export const testCampaignBody = z.object({
  emails: z.array(address).min(1).max(10),
  contactId: z.string().optional().meta({
    description:
      "Render every test with this contact's data; otherwise an address that is a contact renders with its own data",
  }),
  data: dataSchema.optional().meta({
    description: "Sample variables, over the contact's data (the only data for an address that is no contact)",
  }),
});

export const testCampaignResult = z.object({
  emails: z.array(z.object({ to: z.string(), email: z.string(), status: z.enum(['QUEUED', 'SUPPRESSED']) })),
});

export const pickWinnerBody = z.object({
  variantId: z.string().max(10).meta({ description: 'The variant to send to the rest: "A"–"E"' }),
});

export const variantStatsSchema = z
  .object({
    id: variantId,
    recipients: z.number().int(),
    sent: z.number().int(),
    opened: z.number().int(),
    humanOpened: z.number().int(),
    clicked: z.number().int(),
    humanClicked: z.number().int(),
    openRate: z.number().meta({ description: 'Human opens over sent' }),
    clickRate: z.number().meta({ description: 'Human clicks over sent' }),
    winner: z.boolean(),
  })
  .meta({ id: 'CampaignVariantStats' });

export const campaignLinkSchema = z
  .object({
    url: z.string(),
    clicks: z.number().int(),
    humanClicks: z.number().int().meta({ description: 'Clicks by people (not scanners)' }),
    uniqueClicks: z.number().int().meta({ description: 'Emails whose recipient clicked the link' }),
  })
  .meta({ id: 'CampaignLink' });

export const followUpBody = z.object({
  audience: z
    .enum(['nonOpeners', 'nonClickers'])
    .meta({ description: "The original's recipients who did not open (humanly), or did not click" }),
  subject: singleLine(998).pipe(z.string().min(1)).optional(),
  body: z.string().min(1).max(1_000_000).optional(),
});

export const campaignStatsSchema = z
  .object({
    recipients: z.number().int(),
    sent: z.number().int().meta({ description: 'Handed to the mail server: SENT, DELIVERED, BOUNCED, COMPLAINED' }),
    delivered: z.number().int().meta({
      description: 'Reported delivered by the provider (status DELIVERED; always 0 with the outbox or an SMTP relay)',
    }),
    opened: z.number().int().meta({ description: "Emails opened, by people or machines (Apple's prefetch, scanners)" }),
    humanOpened: z.number().int().meta({ description: 'Emails opened by a person' }),
    clicked: z.number().int(),
    humanClicked: z.number().int().meta({ description: 'Emails with a link clicked by a person' }),
    bounced: z.number().int(),
    complained: z.number().int(),
    unsubscribed: z.number().int().meta({ description: "Recipients who unsubscribed through this campaign's email" }),
    failed: z.number().int(),
    suppressed: z.number().int().meta({ description: 'Emails not sent to their recipient (SUPPRESSED)' }),
    suppressedByReason: z.record(z.string(), z.number().int()).meta({
      description:
        'SUPPRESSED emails by reason: SNOOZED (the contact paused marketing mail), FREQUENCY_CAP (the ' +
        "project's cap was reached), UNSUBSCRIBED and SUPPRESSED (found at delivery), TOPIC",
    }),
    openRate: z.number().meta({ description: 'humanOpened over sent' }),
    clickRate: z.number().meta({ description: 'humanClicked over sent' }),
    bounceRate: z.number(),
    complaintRate: z.number(),
    variants: z.array(variantStatsSchema).optional().meta({ description: "An A/B test's figures per variant" }),
    sendTime: z
      .object({ optimized: sendTimeGroupSchema, holdout: sendTimeGroupSchema })
      .optional()
      .meta({
        description:
          'Send-time optimisation: the recipients sent at their best hour and the holdout sent at once, with ' +
          "each group's human open and click rates",
      }),
    localTime: z
      .object({
        unknownTimeZones: z
          .number()
          .int()
          .meta({ description: "Recipients whose data.timezone names no time zone: they got the project's" }),
      })
      .optional()
      .meta({ description: "A send at each recipient's local time" }),
  })
  .meta({ id: 'CampaignStats' });

/** What the API reference says about each campaign route, by operationId. */
export const campaignRouteDocs = {
  deleteCampaign:
    'Deletes a DRAFT, SENT or CANCELLED campaign (409 while SCHEDULED, SENDING, TESTING or PAUSED). The ' +
    'emails it sent stay in the email log, and count in the email stats.',
  sendCampaign:
    'Sends a DRAFT or SCHEDULED campaign now, schedules it for a future `scheduledFor`, or for each ' +
    "recipient's local time with `sendAt` (202, empty body). The body is optional. The pre-send check runs " +
    'first: an `error` issue refuses the send (409 CHECK_FAILED, listing them) unless `force` is true.',
  cancelCampaign: 'Cancels a SCHEDULED, SENDING, TESTING or PAUSED campaign and its unsent emails (202, empty body).',
  pauseCampaign:
    'A SENDING or TESTING campaign, or a local-time send under way (SCHEDULED while its time zones take ' +
    'their turns), becomes PAUSED: nothing more of it is handed to the mail server until it is resumed ' +
    '(messages already being handed over finish). 409 in any other status.',
  resumeCampaign:
    'A PAUSED campaign goes on where it stopped: SENDING, TESTING while its A/B test is undecided, or ' +
    'SCHEDULED for a local-time send whose time zones are not all through (each waiting email keeps its ' +
    'time). 409 in any other status.',
  pickCampaignWinner:
    'Ends the test of a TESTING campaign early: `variantId` goes to the rest of the audience. 409 ' +
    'without a test or outside TESTING; 422 for a variant it does not have.',
  createFollowUpCampaign:
    "A DRAFT FILTERED campaign to this campaign's recipients who did not open it (`nonOpeners`) or click " +
    'in it (`nonClickers`), counting people only, and are still subscribed; with its content unless ' +
    '`subject` or `body` replace it.',
  getCampaignLinks:
    'Each link of the campaign that was clicked: every click, clicks by people, and the emails whose ' +
    'recipient clicked it; most clicked first (up to 500).',
  unscheduleCampaign: 'Returns a SCHEDULED campaign to DRAFT and clears its time (409 in any other status).',
  duplicateCampaign:
    'A new DRAFT named "<name> (copy)" with the same content, audience and sender, and no schedule; from ' +
    'a campaign in any status.',
  testCampaign:
    'Sends the rendered campaign to a few addresses, subject prefixed "[TEST] ". Each renders with the ' +
    'data of the contact picked by `contactId`, else of the contact with that address, with `data` over ' +
    'it. 404 when the campaign or the picked contact is not found.',
} as const;

import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';
import { isTimeZone } from '../../lib/time-zone.ts';
import { checkCode } from '../checks/index.ts';
import { defaultFromSchema } from './settings.default-from.ts';
import { MAX_FREQUENCY_CAP_DAYS, MAX_FREQUENCY_CAP_EMAILS, frequencyCapDays } from './settings.frequency-cap.ts';

const tracking = z.enum(['ALL', 'MARKETING_ONLY', 'NONE']).meta({
  description:
    'Open and click tracking: ALL tracks transactional mail too (unless a send says ' +
    '`tracking: false`); MARKETING_ONLY (default) tracks campaigns, workflow mail and ' +
    'sends that ask for it; NONE tracks nothing, even when a send asks.',
});
const timezone = z
  .string()
  .refine(isTimeZone, { message: 'Not an IANA time zone name (like "Europe/Paris" or "UTC")' })
  .meta({
    description:
      "The project's time zone (IANA name): local-time sends use it for contacts " +
      'without `data.timezone`, and the dashboard shows days in it.',
  });
const doubleOptIn = z
  .object({
    templateId: z.string().meta({
      description:
        'A template of the project with a sender (`from`) whose body links to ' +
        '{{confirmUrl}} (422 otherwise). While it is chosen, a template change that ' +
        'removes either is refused (409).',
    }),
  })
  .strict()
  .nullable()
  .meta({
    description:
      'Double opt-in: signups through POST /v1/subscribe stay unsubscribed until they ' +
      'confirm through this email. null turns it off.',
  });
const frequencyCapShape = z.object({
  max: z
    .number()
    .int()
    .min(1)
    .max(MAX_FREQUENCY_CAP_EMAILS)
    .meta({
      description: `At most this many marketing emails per contact (1 to ${MAX_FREQUENCY_CAP_EMAILS})`,
    }),
  per: z.string().meta({
    description: `In any window of this many days, written "<n>d" (1d to ${MAX_FREQUENCY_CAP_DAYS}d)`,
    example: '7d',
  }),
});
const frequencyCap = frequencyCapShape
  .extend({
    per: frequencyCapShape.shape.per.refine((per) => frequencyCapDays(per) !== null, {
      message: `must be a number of days from 1d to ${MAX_FREQUENCY_CAP_DAYS}d, such as "7d"`,
    }),
  })
  .strict()
  .nullable()
  .meta({
    description:
      'A contact who was sent `max` marketing emails (campaigns, marketing workflow steps, marketing sends) in the ' +
      'last `per` gets no more until one ages out: SUPPRESSED, reason FREQUENCY_CAP. A campaign with ' +
      '`ignoreFrequencyCap: true` is not held by it. null turns it off.',
  });

const rate = (what: string, dflt: number) =>
  z
    .number()
    .gt(0)
    .lte(1)
    .meta({
      description: `A campaign pauses itself when, after 200 handoffs, its ${what} rate passes this (default ${dflt}).`,
    });

export const settingsSchema = z
  .object({
    name: z.string(),
    timezone: z.string(),
    tracking,
    doubleOptIn: z.object({ templateId: z.string() }).nullable(),
    maxBounceRate: z.number(),
    maxComplaintRate: z.number(),
    requireTwoFactor: z.boolean(),
    frequencyCap: frequencyCapShape.nullable().meta({ description: 'The frequency cap of marketing mail; null: none' }),
    checkErrors: z.array(z.string()).meta({ description: 'Pre-send check codes that count as errors here' }),
    defaultLayoutId: z.string().nullable().meta({ description: 'The layout of templates and campaigns naming none' }),
    defaultFrom: z.string().nullable().meta({
      description: 'The sender of sends and campaigns that name none ("Acme <hello@acme.com>"); null: none',
      example: 'Acme <hello@acme.com>',
    }),
    dormantAfterDays: z.number().int(),
    sunset: z.object({ action: z.enum(['unsubscribe', 'none']) }),
    updatedAt: isoDate
      .nullable()
      .meta({ description: 'When a setting last changed; null while every setting has its default.' }),
  })
  .meta({ id: 'Settings' });

export const updateSettingsBody = z
  .object({
    name: nameSchema()
      .optional()
      .meta({ description: "The project's name, shown on its unsubscribe and preference pages." }),
    timezone: timezone.optional(),
    tracking: tracking.optional(),
    doubleOptIn: doubleOptIn.optional(),
    maxBounceRate: rate('bounce', 0.08).optional(),
    maxComplaintRate: rate('complaint', 0.003).optional(),
    frequencyCap: frequencyCap.optional(),
    requireTwoFactor: z
      .boolean()
      .optional()
      .meta({
        description:
          'Members without two-factor can only set it up until they have (other routes ' +
          'answer 403 TWO_FACTOR_REQUIRED). Only a signed-in owner changes it.',
      }),
    checkErrors: z
      .array(checkCode)
      .max(50)
      .optional()
      .meta({
        description:
          'Pre-send check codes to treat as errors whatever their severity (a campaign send with one is ' +
          'refused with 409 CHECK_FAILED unless forced); [] keeps the defaults.',
      }),
    defaultLayoutId: z
      .string()
      .max(64)
      .nullable()
      .optional()
      .meta({ description: 'The layout of templates and campaigns naming none; null: no default' }),
    defaultFrom: defaultFromSchema.optional(),
    dormantAfterDays: z
      .number()
      .int()
      .min(7)
      .max(3650)
      .optional()
      .meta({
        description:
          'A contact with no human open or click for this many days (7–3650, default 180) while marketing mail ' +
          'kept arriving is dormant; one with one in the last half of it is engaged.',
      }),
    sunset: z
      .object({ action: z.enum(['unsubscribe', 'none']) })
      .strict()
      .optional()
      .meta({
        description:
          'Sunsetting: with `unsubscribe`, dormant contacts are unsubscribed once a day (a ' +
          '`contact.unsubscribed` event and webhook for each); `none` (default) leaves them.',
      }),
  })
  .strict();

// GET /emails/metrics: the figures of the campaign stats over every email of a period, per day (in the project's
// time zone), per campaign, per recipient domain, per mailbox provider or per transport, counted in the database in
// one grouped pass.
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { parseIsoInstant } from '../../lib/dates.ts';
import { rate } from '../../lib/rate.ts';
import { MAILBOX_PROVIDERS } from '../../mail/providers.ts';
import { getProjectSettings } from '../settings/index.ts';
import { countEmailMetrics, numbers, type PeriodBound } from './emails.repo.ts';
import type { CampaignCounts } from './emails.types.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const METRICS_DEFAULT_DAYS = 30;
export const METRICS_MAX_DAYS = 366;
const METRICS_GROUPINGS = ['day', 'campaign', 'domain', 'provider', 'transport'] as const;
const metricsProvider = z.enum(['unknown', ...MAILBOX_PROVIDERS]);
/** At most this many groups come back (the most sent first): a period's recipient domains can be many. */
export const METRICS_MAX_GROUPS = 1000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const bound = (which: string) =>
  z
    .string()
    .max(40)
    .refine((v) => parseIsoInstant(v) !== null, { error: 'must be an ISO 8601 date or date-time' })
    .optional()
    .meta({ description: `${which}: a date (a day in the project's time zone) or a date-time` });

// The period as the check sees it: a date alone is its whole day (read as UTC here; the query reads it in the
// project's time zone, which moves both ends alike).
function span(from: string | undefined, to: string | undefined, now: Date) {
  const end = to === undefined ? now : new Date(parseIsoInstant(to)!.getTime() + (DATE_ONLY.test(to) ? DAY_MS : 0));
  const start = from === undefined ? new Date(end.getTime() - METRICS_DEFAULT_DAYS * DAY_MS) : parseIsoInstant(from)!;
  return { start, end };
}

export const emailMetricsQuery = z
  .object({
    from: bound('Start of the period (default: 30 days before `to`)'),
    to: bound('End of the period, a date included whole (default: now)'),
    groupBy: z.enum(METRICS_GROUPINGS).default('day'),
  })
  .superRefine((q, check) => {
    if ([q.from, q.to].some((v) => v !== undefined && parseIsoInstant(v) === null)) return;
    const { start, end } = span(q.from, q.to, new Date());
    if (end <= start) check.addIssue({ code: 'custom', path: ['to'], message: 'must be after `from`' });
    else if (end.getTime() - start.getTime() > METRICS_MAX_DAYS * DAY_MS)
      check.addIssue({
        code: 'custom',
        path: ['to'],
        message: `must be at most ${METRICS_MAX_DAYS} days after \`from\``,
      });
  });
export type EmailMetricsQuery = z.infer<typeof emailMetricsQuery>;

const int = z.number().int();
const figures = {
  recipients: int,
  sent: int,
  delivered: int,
  bounced: int,
  complained: int,
  opened: int,
  humanOpened: int,
  clicked: int,
  humanClicked: int,
  unsubscribed: int,
  failed: int,
  deliveryRate: z.number().meta({ description: 'delivered / sent' }),
  bounceRate: z.number().meta({ description: 'bounced / sent' }),
  complaintRate: z.number().meta({ description: 'complained / sent' }),
  openRate: z.number().meta({ description: 'humanOpened / sent' }),
  clickRate: z.number().meta({ description: 'humanClicked / sent' }),
};

export const emailMetricsSchema = z
  .object({
    from: z.string().meta({ description: 'Start of the period (included)' }),
    to: z.string().meta({ description: 'End of the period (excluded)' }),
    groupBy: z.enum(METRICS_GROUPINGS),
    timezone: z.string().meta({ description: "The project's time zone: days and dates given alone are read in it" }),
    groups: z
      .array(
        z.object({
          date: z
            .string()
            .optional()
            .meta({ description: "groupBy=day: the day (YYYY-MM-DD) in the project's time zone" }),
          campaignId: z
            .string()
            .nullable()
            .optional()
            .meta({ description: 'groupBy=campaign: the campaign; null for transactional and workflow email' }),
          campaignName: z
            .string()
            .nullable()
            .optional()
            .meta({ description: 'groupBy=campaign: its name (null when deleted, or for transactional email)' }),
          domain: z.string().optional().meta({ description: "groupBy=domain: the recipient's domain" }),
          provider: metricsProvider.optional().meta({
            description:
              "groupBy=provider: the recipient's mailbox provider; unknown for emails never handed over " +
              '(suppressed, cancelled, failed before the handoff, or still waiting)',
          }),
          transportId: z
            .string()
            .nullable()
            .optional()
            .meta({
              description:
                'groupBy=transport: the transport that carried the email (`default`, or the id of one of the ' +
                "project's); null for emails never handed over",
            }),
          transportName: z
            .string()
            .nullable()
            .optional()
            .meta({ description: 'groupBy=transport: its name (null once deleted, or for emails never handed over)' }),
          ...figures,
        }),
      )
      .meta({
        description:
          `Groups with email: days oldest first; campaigns, domains, providers and transports most ` +
          `sent first (at most ${METRICS_MAX_GROUPS})`,
      }),
    totals: z.object(figures),
  })
  .meta({ id: 'EmailMetrics' });
export type EmailMetrics = z.infer<typeof emailMetricsSchema>;

const withRates = (c: CampaignCounts) => ({
  ...c,
  deliveryRate: rate(c.delivered, c.sent),
  bounceRate: rate(c.bounced, c.sent),
  complaintRate: rate(c.complained, c.sent),
  openRate: rate(c.humanOpened, c.sent),
  clickRate: rate(c.humanClicked, c.sent),
});

// An end of the period: a date alone is local midnight in the project's time zone (`days` later for the end).
function boundOf(value: string, days: number): PeriodBound {
  return DATE_ONLY.test(value) ? { date: value, days } : { instant: parseIsoInstant(value)! };
}

/**
 * GET /emails/metrics: the emails created in the period (test sends excluded), each counted once per activity
 * whenever it happened, grouped; the definitions and rates of the campaign stats.
 */
export async function getEmailMetrics(opts: {
  db: Executor;
  projectId: string;
  query: EmailMetricsQuery;
  now?: Date;
}): Promise<EmailMetrics> {
  const { timezone } = await getProjectSettings({ db: opts.db, projectId: opts.projectId });
  const { from, to, groupBy } = opts.query;
  const now = opts.now ?? new Date();
  const { totals, groups } = await countEmailMetrics(opts.db, {
    projectId: opts.projectId,
    timezone,
    groupBy,
    limit: METRICS_MAX_GROUPS,
    start: from === undefined ? { daysBeforeEnd: METRICS_DEFAULT_DAYS } : boundOf(from, 0),
    end: to === undefined ? { instant: now } : boundOf(to, 1),
  });
  const { from: first, to: last, ...total } = totals;
  return {
    from: String(first),
    to: String(last),
    groupBy,
    timezone,
    groups: groups.map(({ date, campaignId, campaignName, domain, provider, transportId, transportName, ...row }) => ({
      ...(groupBy === 'day' ? { date: String(date) } : {}),
      ...(groupBy === 'campaign'
        ? {
            campaignId: campaignId === null ? null : String(campaignId),
            campaignName: campaignName === null ? null : String(campaignName),
          }
        : {}),
      ...(groupBy === 'domain' ? { domain: String(domain) } : {}),
      ...(groupBy === 'provider' ? { provider: metricsProvider.catch('unknown').parse(provider) } : {}),
      ...(groupBy === 'transport'
        ? {
            transportId: transportId === null ? null : String(transportId),
            transportName: transportName === null ? null : String(transportName),
          }
        : {}),
      ...withRates(numbers<CampaignCounts>(row as Record<string, number | string>)),
    })),
    totals: withRates(numbers<CampaignCounts>(total)),
  };
}

// Resend's email metrics on Herald's (GET /emails/metrics): the totals of a period, or its figures per day, week or
// month (the `period` dimension) or per broadcast (Herald's campaigns). Herald counts each email once per activity,
// so `opened` and `unique_opened` are one figure, as are `clicked` and `unique_clicked`.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { parseIsoInstant } from '../../lib/dates.ts';
import { validationError } from '../../lib/errors.ts';
import { rate } from '../../lib/rate.ts';
import { projectOf } from '../../plugins/auth.ts';
import { emailMetricsQuery, getEmailMetrics, type EmailMetrics } from '../emails/index.ts';
import { getProjectSettings } from '../settings/index.ts';
import { resendErrors } from './resend.errors.ts';
import { RESEND_READ, RESEND_TAG } from './resend.tag.ts';

type Figures = EmailMetrics['totals'];

/** Each metric Herald has, from its figures. */
const METRICS = {
  sent: (f: Figures) => f.sent,
  delivered: (f: Figures) => f.delivered,
  bounced: (f: Figures) => f.bounced,
  complained: (f: Figures) => f.complained,
  opened: (f: Figures) => f.opened,
  unique_opened: (f: Figures) => f.opened,
  clicked: (f: Figures) => f.clicked,
  unique_clicked: (f: Figures) => f.clicked,
  unsubscribed: (f: Figures) => f.unsubscribed,
  failed: (f: Figures) => f.failed,
  delivery_rate: (f: Figures) => rate(f.delivered, f.sent),
  open_rate: (f: Figures) => rate(f.humanOpened, f.sent),
  click_rate: (f: Figures) => rate(f.humanClicked, f.sent),
  bounce_rate: (f: Figures) => rate(f.bounced, f.sent),
  complaint_rate: (f: Figures) => rate(f.complained, f.sent),
  unsubscribe_rate: (f: Figures) => rate(f.unsubscribed, f.sent),
} as const;
type Metric = keyof typeof METRICS;
const METRIC_NAMES = Object.keys(METRICS) as Metric[];

/** Resend's metrics Herald does not count. */
const UNCOUNTED = [
  'received',
  'suppressed',
  'bounced_transient',
  'bounced_permanent',
  'bounced_undetermined',
  'delivery_delayed',
];
const GRANULARITIES = ['daily', 'weekly', 'monthly'] as const;
type Granularity = (typeof GRANULARITIES)[number];
const DAY_MS = 24 * 60 * 60 * 1000;

const metricsQuery = z.object({
  start_date: z.string().max(40).optional().describe('ISO 8601 date or date-time; default 6 days before end_date'),
  end_date: z.string().max(40).optional().describe('ISO 8601 date (included whole) or date-time; default now'),
  timezone: z.string().max(100).optional().describe("The project's time zone (the only one Herald counts days in)"),
  granularity: z.enum([...GRANULARITIES, 'hourly']).default('daily'),
  metrics: z
    .string()
    .max(1000)
    .optional()
    .describe(`Comma-separated: ${METRIC_NAMES.join(', ')}`),
  dimensions: z.string().max(100).optional().describe('`period` or `broadcast` (one at a time), or none'),
  domain_id: z.string().max(2000).optional(),
  email_id: z.string().max(2000).optional(),
  broadcast_id: z.string().max(2000).optional(),
});
type MetricsQuery = z.infer<typeof metricsQuery>;

const row = z.record(z.string(), z.union([z.number(), z.string(), z.null()]));
const metricsSchema = z
  .object({
    object: z.literal('metrics'),
    start_date: z.string(),
    end_date: z.string(),
    metrics: z.array(z.string()),
    dimensions: z.array(z.string()),
    granularity: z.enum(GRANULARITIES),
    totals: row,
    data: z.array(row).optional(),
  })
  .meta({ id: 'ResendEmailMetrics' });

const listOf = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** The metrics asked for (all Herald has by default); one Herald does not count, or an unknown one, is a 422. */
function metricsOf(query: MetricsQuery): Metric[] {
  const asked = listOf(query.metrics);
  for (const name of asked) {
    if (UNCOUNTED.includes(name)) throw validationError('metrics', `metrics: Herald does not count ${name}`);
    if (!(METRIC_NAMES as string[]).includes(name))
      throw validationError('metrics', `metrics: ${name} is not one of ${METRIC_NAMES.join(', ')}`);
  }
  return asked.length > 0 ? [...new Set(asked as Metric[])] : METRIC_NAMES;
}

/** The one dimension asked for, if any: `period` or `broadcast`. */
function dimensionOf(query: MetricsQuery): 'period' | 'broadcast' | null {
  const asked = [...new Set(listOf(query.dimensions))];
  if (asked.length > 1) throw validationError('dimensions', 'dimensions: Herald breaks figures down one way at a time');
  const [dimension] = asked;
  if (dimension === undefined) return null;
  if (dimension === 'period' || dimension === 'broadcast') return dimension;
  throw validationError(
    'dimensions',
    dimension === 'domain' || dimension === 'email'
      ? `dimensions: Herald does not break figures down by ${dimension}`
      : `dimensions: ${dimension} is not one of period, broadcast`,
  );
}

/** The period Herald is asked for: Resend's default start is 6 days before the end (a date when the end is one). */
function periodOf(query: MetricsQuery, now: Date): { from?: string; to?: string } {
  const to = query.end_date === undefined ? {} : { to: query.end_date };
  if (query.start_date !== undefined) return { from: query.start_date, ...to };
  const end = query.end_date === undefined ? now : parseIsoInstant(query.end_date);
  if (end === null) return to;
  const start = new Date(end.getTime() - 6 * DAY_MS).toISOString();
  return { from: /^\d{4}-\d{2}-\d{2}$/.test(query.end_date ?? '') ? start.slice(0, 10) : start, ...to };
}

/** The first day of the week (Monday) or month of a day. */
function periodStart(date: string, granularity: Granularity): string {
  if (granularity === 'monthly') return `${date.slice(0, 8)}01`;
  if (granularity === 'daily') return date;
  const day = new Date(`${date}T00:00:00Z`);
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}

const COUNTS = [
  'sent',
  'delivered',
  'bounced',
  'complained',
  'opened',
  'humanOpened',
  'clicked',
  'humanClicked',
] as const;

/** Days summed into weeks or months (oldest first). */
function byPeriod(groups: EmailMetrics['groups'], granularity: Granularity): { period: string; figures: Figures }[] {
  const periods = new Map<string, Figures>();
  for (const group of groups) {
    const period = periodStart(group.date!, granularity);
    const sum = periods.get(period);
    if (!sum) periods.set(period, { ...group });
    else for (const key of [...COUNTS, 'recipients', 'unsubscribed', 'failed'] as const) sum[key] += group[key];
  }
  return [...periods].map(([period, figures]) => ({ period, figures }));
}

/**
 * What a request asks for, checked: the metrics, the one dimension, the granularity and Herald's query of the
 * period. What Herald cannot answer (an id filter, an hour, another time zone, a metric it does not count) is a 422.
 */
function readQuery(query: MetricsQuery, timezone: string, now: Date) {
  for (const filter of ['domain_id', 'email_id', 'broadcast_id'] as const)
    if (query[filter] !== undefined) throw validationError(filter, `${filter}: Herald does not filter metrics by it`);
  const metrics = metricsOf(query);
  const dimension = dimensionOf(query);
  if (query.granularity === 'hourly' && dimension === 'period')
    throw validationError('granularity', 'granularity: Herald counts per day at the finest');
  if (query.timezone !== undefined && query.timezone !== timezone)
    throw validationError('timezone', `timezone: Herald counts days in the project's time zone, ${timezone}`);
  const parsed = emailMetricsQuery.safeParse({
    ...periodOf(query, now),
    groupBy: dimension === 'broadcast' ? 'campaign' : 'day',
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path[0] === 'from' ? 'start_date' : 'end_date';
    throw validationError(field, `${field}: ${issue.message.replaceAll('`from`', '`start_date`')}`);
  }
  const granularity: Granularity = query.granularity === 'hourly' ? 'daily' : query.granularity;
  return { metrics, dimension, granularity, heraldQuery: parsed.data };
}

const pick = (figures: Figures, metrics: Metric[]) =>
  Object.fromEntries(metrics.map((metric) => [metric, METRICS[metric](figures)]));

/** GET /emails/metrics in Resend's shape. */
export function resendMetricsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/emails/metrics',
      {
        config: RESEND_READ,
        schema: {
          tags: [RESEND_TAG],
          summary: 'Email metrics (Resend)',
          operationId: 'resendEmailMetrics',
          description:
            "Herald's email figures (GET /emails/metrics) over emails created in the period (at most 366 days), " +
            'in total or per period or broadcast; rates are shares of `sent` from 0 to 1.',
          querystring: metricsQuery,
          response: { 200: metricsSchema, ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const { timezone } = await getProjectSettings({ db: ctx.db, projectId });
        const { metrics, dimension, granularity, heraldQuery } = readQuery(request.query, timezone, new Date());
        const result = await getEmailMetrics({ db: ctx.db, projectId, query: heraldQuery });
        const data =
          dimension === 'period'
            ? byPeriod(result.groups, granularity).map(({ period, figures }) => ({ period, ...pick(figures, metrics) }))
            : dimension === 'broadcast'
              ? result.groups
                  .filter((group) => group.campaignId)
                  .map((group) => ({
                    broadcast_id: group.campaignId!,
                    broadcast_name: group.campaignName ?? null,
                    ...pick(group, metrics),
                  }))
              : undefined;
        return {
          object: 'metrics' as const,
          start_date: result.from,
          end_date: result.to,
          metrics,
          dimensions: dimension ? [dimension] : [],
          granularity,
          totals: pick(result.totals, metrics),
          ...(data ? { data } : {}),
        };
      },
    );
  };
}

// A sender domain's throughput towards each mailbox provider: what it may send per hour now (its limit, or the
// slowed rate after a "slow down" deferral), what it sent and had deferred in the last hour, and per hour for a chart.
// Read from the counts and throttles the engine keeps per sender domain, provider and minute.
import { and, eq, gt, gte, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { sendCounts, sendThrottles, type MailboxProvider } from '../../db/schema/transports.ts';
import { envelope, errors, idParams, ok } from '../../lib/http.ts';
import { MAILBOX_PROVIDERS } from '../../mail/providers.ts';
import { projectOf } from '../../plugins/auth.ts';
import { getDomain } from '../domains/index.ts';
import { allowedPerHour, SLOWDOWN_HOURS } from './sending.limits.ts';

const HOUR_MS = 3600_000;
/** The per-minute counts are kept two days: the series reaches back at most that far. */
export const MAX_SERIES_HOURS = 48;

const provider = z.enum(MAILBOX_PROVIDERS as [MailboxProvider, ...MailboxProvider[]]);

export const providerThroughputSchema = z
  .object({
    provider,
    allowedPerHour: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          'What the domain may send to the provider per hour now: its limit, or the slowed rate for an hour ' +
          'after a "slow down" deferral (whole messages); null: unlimited',
      }),
    sentLastHour: z.number().int().meta({ description: 'Messages handed over in the last 60 minutes' }),
    deferredLastHour: z.number().int().meta({ description: 'Messages deferred in the last 60 minutes' }),
    state: z.enum(['OK', 'THROTTLED']).meta({
      description: 'THROTTLED while a slow-down is in force or the last hour reached allowedPerHour',
    }),
  })
  .meta({ id: 'ProviderThroughput' });

export const throughputHourSchema = z
  .object({
    hour: z.string().meta({ description: 'The start of the hour (UTC)', format: 'date-time' }),
    provider,
    sent: z.number().int(),
    deferred: z.number().int(),
  })
  .meta({ id: 'ThroughputHour' });

export const throughputSeriesQuery = z.object({
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_SERIES_HOURS)
    .default(24)
    .meta({ description: `How many hours back, the current one included (1 to ${MAX_SERIES_HOURS})` }),
});

export type ProviderThroughput = z.infer<typeof providerThroughputSchema>;
export type ThroughputHour = z.infer<typeof throughputHourSchema>;

async function findThrottles(db: Executor, domainId: string) {
  return db
    .select({
      provider: sendThrottles.provider,
      slowedPerHour: sendThrottles.slowedPerHour,
      slowedAt: sendThrottles.slowedAt,
    })
    .from(sendThrottles)
    .where(eq(sendThrottles.domainId, domainId));
}

async function countSince(db: Executor, domainId: string, since: Date) {
  return db
    .select({
      provider: sendCounts.provider,
      sent: sql<string>`sum(${sendCounts.sent})`,
      deferred: sql<string>`sum(${sendCounts.deferred})`,
    })
    .from(sendCounts)
    .where(and(eq(sendCounts.domainId, domainId), gt(sendCounts.minute, since)))
    .groupBy(sendCounts.provider);
}

/**
 * GET /domains/{id}/throughput: each of the five mailbox providers, always in the same order, with its allowed rate
 * now, the last 60 minutes' counts, and THROTTLED while a slow-down is in force or the hour reached the rate.
 */
export async function getDomainThroughput(opts: {
  db: Executor;
  projectId: string;
  id: string;
  now?: Date;
}): Promise<ProviderThroughput[]> {
  const domain = await getDomain({ db: opts.db, projectId: opts.projectId, id: opts.id });
  const now = opts.now ?? new Date();
  const throttles = new Map((await findThrottles(opts.db, domain.id)).map((t) => [t.provider, t]));
  const counts = new Map(
    (await countSince(opts.db, domain.id, new Date(now.getTime() - HOUR_MS))).map((c) => [c.provider, c]),
  );
  return MAILBOX_PROVIDERS.map((name) => {
    const throttle = throttles.get(name);
    const slowedAt = throttle?.slowedAt ?? null;
    const allowed = allowedPerHour({
      configured: domain.providerLimits[name] ?? null,
      slowedPerHour: throttle?.slowedPerHour ?? null,
      slowedAt,
      now,
    });
    const sentLastHour = Number(counts.get(name)?.sent ?? 0);
    const elapsed = slowedAt ? now.getTime() - slowedAt.getTime() : null;
    const slowed = elapsed !== null && elapsed >= 0 && elapsed < SLOWDOWN_HOURS * HOUR_MS;
    return {
      provider: name,
      allowedPerHour: allowed === null ? null : Math.floor(allowed),
      sentLastHour,
      deferredLastHour: Number(counts.get(name)?.deferred ?? 0),
      state: slowed || (allowed !== null && sentLastHour >= allowed) ? 'THROTTLED' : 'OK',
    };
  });
}

/**
 * GET /domains/{id}/throughput/series: what the domain handed over and had deferred per UTC hour and provider, the
 * last `hours` hours (the current one included), oldest first; hours and providers without any are left out.
 */
export async function getDomainThroughputSeries(opts: {
  db: Executor;
  projectId: string;
  id: string;
  hours: number;
  now?: Date;
}): Promise<ThroughputHour[]> {
  const domain = await getDomain({ db: opts.db, projectId: opts.projectId, id: opts.id });
  const now = opts.now ?? new Date();
  const since = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (opts.hours - 1) * HOUR_MS);
  const hour = sql<string>`to_char(date_trunc('hour', ${sendCounts.minute} AT TIME ZONE 'UTC'),
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const rows = await opts.db
    .select({
      hour,
      provider: sendCounts.provider,
      sent: sql<string>`sum(${sendCounts.sent})`,
      deferred: sql<string>`sum(${sendCounts.deferred})`,
    })
    .from(sendCounts)
    .where(and(eq(sendCounts.domainId, domain.id), gte(sendCounts.minute, since)))
    .groupBy(sql`1`, sendCounts.provider)
    .orderBy(sql`1`, sendCounts.provider);
  return rows.map((r) => ({ hour: r.hour, provider: r.provider, sent: Number(r.sent), deferred: Number(r.deferred) }));
}

/** What the API reference says about each throughput route, by operationId. */
const throughputRouteDocs = {
  getDomainThroughput:
    'Per mailbox provider (gmail, microsoft, yahoo, apple, other, always all five): the mail per hour the domain ' +
    'may send now (its `providerLimits`, or after a "slow down" deferral the halved rate, growing back by 10 % ' +
    'every 10 minutes without one, for an hour; null: unlimited), what was handed over and deferred in the last ' +
    '60 minutes, and THROTTLED while a slow-down is in force or the hour reached the rate. Mail over the rate ' +
    'waits its turn.',
  getDomainThroughputSeries:
    'Mail handed over and deferred per UTC hour and mailbox provider, the last `hours` hours (default 24, at ' +
    `most ${MAX_SERIES_HOURS}) oldest first; hours and providers without mail are left out.`,
} as const;

/** A sender domain's throughput per mailbox provider, now and per hour. */
export function throughputRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret', scope: 'read', role: 'viewer' } as const;
    const tags = ['Domains'];

    app.get(
      '/domains/:id/throughput',
      {
        config,
        schema: {
          tags,
          summary: "Get a sender domain's throughput per mailbox provider",
          operationId: 'getDomainThroughput',
          description: throughputRouteDocs.getDomainThroughput,
          params: idParams,
          response: { 200: envelope(z.array(providerThroughputSchema)), ...errors(404) },
        },
      },
      async (request) =>
        ok(await getDomainThroughput({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/domains/:id/throughput/series',
      {
        config,
        schema: {
          tags,
          summary: "Get a sender domain's mail per hour and mailbox provider",
          operationId: 'getDomainThroughputSeries',
          description: throughputRouteDocs.getDomainThroughputSeries,
          params: idParams,
          querystring: throughputSeriesQuery,
          response: { 200: envelope(z.array(throughputHourSchema)), ...errors(404) },
        },
      },
      async (request) =>
        ok(
          await getDomainThroughputSeries({
            db: ctx.db,
            projectId: projectOf(request),
            id: request.params.id,
            hours: request.query.hours,
          }),
        ),
    );
  };
}

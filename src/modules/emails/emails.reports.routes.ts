import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { emailMetricsQuery, emailMetricsSchema, getEmailMetrics } from './emails.breakdown.ts';
import { emailStatsQuery, emailStatsSchema, getEmailStats } from './emails.stats.ts';

/** Reports on the project's email: activity per day, and figures over a period. */
export function emailReportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Emails'];

    app.get(
      '/emails/stats',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Email activity per day',
          operationId: 'getEmailStats',
          description:
            'Emails sent, delivered, opened, clicked, bounced and complained per UTC day, ' +
            'each email counted once per activity on the day it happened, with the same ' +
            'definitions as the campaign stats: delivered counts only what a provider ' +
            'reported delivered (status DELIVERED). Test sends are not counted in these figures but ' +
            'given apart (`testSends`, those sent in the period); activity is ' +
            'counted for emails created from 30 days before the first day on (so an open of ' +
            'an older email is not).',
          querystring: emailStatsQuery,
          response: { 200: envelope(emailStatsSchema), ...errors() },
        },
      },
      async (request) =>
        ok(await getEmailStats({ db: ctx.db, projectId: projectOf(request), days: request.query.days })),
    );

    app.get(
      '/emails/metrics',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Email figures over a period, grouped',
          operationId: 'getEmailMetrics',
          description:
            'The emails created between `from` and `to` (at most 366 days; default the last ' +
            "30 days; test sends excluded), grouped per day in the project's time zone, per " +
            'campaign (transactional and workflow email together, `campaignId` null), per ' +
            'recipient domain, or per mailbox provider (gmail, microsoft, yahoo, apple, other; ' +
            '`unknown` for emails never handed over). Each email counts once per activity whenever it happened, with ' +
            'the definitions and rates of the campaign stats: `opened` and `clicked` include ' +
            'machines (Apple Mail Privacy Protection, link scanners), `humanOpened` and ' +
            '`humanClicked` count people, and the open and click rates use the human figures; ' +
            'every rate is over `sent` and 0 when nothing was sent.',
          querystring: emailMetricsQuery,
          response: { 200: envelope(emailMetricsSchema), ...errors() },
        },
      },
      async (request) => ok(await getEmailMetrics({ db: ctx.db, projectId: projectOf(request), query: request.query })),
    );
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { errors, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { adminAuditQuery, auditEntrySchema, auditQuery } from './audit.schemas.ts';
import * as service from './audit.service.ts';

const description =
  'Every change made in the project, newest first: by people, keys, the admin token, the CLI and Herald itself. ' +
  'Entries are never changed or deleted, except by retention (RETENTION_AUDIT_DAYS).';

/**
 * /audit-log: who changed what in a project (owners, admins and full keys), and /admin/audit-log across the instance.
 */
export function auditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Audit log'];

    app.get(
      '/audit-log',
      {
        config: { auth: 'secret', scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: "List the project's audit log",
          operationId: 'listAuditLog',
          description,
          querystring: auditQuery,
          response: { 200: listEnvelope(auditEntrySchema), ...errors() },
        },
      },
      async (request) => {
        const { limit, cursor, ...filter } = request.query;
        return ok(
          await service.listAudit({ db: ctx.db, filter: { ...filter, projectId: projectOf(request) }, limit, cursor }),
        );
      },
    );

    app.get(
      '/admin/audit-log',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['Admin'],
          summary: "List the instance's audit log",
          operationId: 'adminListAuditLog',
          description,
          querystring: adminAuditQuery,
          response: { 200: listEnvelope(auditEntrySchema), ...errors() },
        },
      },
      async (request) => {
        const { limit, cursor, ...filter } = request.query;
        return ok(await service.listAudit({ db: ctx.db, filter, limit, cursor }));
      },
    );
  };
}

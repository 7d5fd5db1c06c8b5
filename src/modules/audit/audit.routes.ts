import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { errors, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { adminAuditQuery, auditEntrySchema, auditQuery, auditRouteDocs } from './audit.schemas.ts';
import * as service from './audit.service.ts';

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
          description: auditRouteDocs.listAuditLog,
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
          description: auditRouteDocs.adminListAuditLog,
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

import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';

export const auditEntrySchema = z
  .object({
    id: z.string(),
    at: isoDate,
    actor: z.object({
      type: z.enum(['user', 'key', 'admin', 'system']),
      id: z
        .string()
        .nullable()
        .meta({ description: "The user's or key's id; null for the admin token, the CLI and Herald itself" }),
      label: z
        .string()
        .meta({ description: "A user's email, a key's name and prefix, `admin token`, `cli` or `system`" }),
    }),
    action: z
      .string()
      .meta({ description: '`<resource>.<verb>`, e.g. `campaign.sent`, `key.revoked`, `user.signed_in`' }),
    resourceType: z.string(),
    resourceId: z.string().nullable(),
    projectId: z.string().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    requestId: z.string().nullable(),
    changes: z
      .record(z.string(), z.tuple([z.unknown(), z.unknown()]))
      .nullable()
      .meta({ description: "`{field: [before, after]}`; secrets and contacts' personal values show as `[redacted]`" }),
  })
  .meta({ id: 'AuditEntry' });

const when = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const auditQuery = paginationQuery.extend({
  actor: z
    .string()
    .min(1)
    .max(320)
    .optional()
    .meta({ description: "An actor's id, label (a user's email) or type (`user`, `key`, `admin`, `system`)" }),
  action: z.string().min(1).max(100).optional().meta({
    description: 'One action (`contact.updated`), or every action of a resource with a trailing dot (`contact.`)',
  }),
  resourceType: z.string().min(1).max(100).optional(),
  resourceId: z.string().min(1).max(200).optional(),
  from: when.optional().meta({ description: 'Entries at or after this time (ISO 8601)' }),
  to: when.optional().meta({ description: 'Entries at or before this time (ISO 8601)' }),
});

export const adminAuditQuery = auditQuery.extend({
  projectId: z.uuid().optional().meta({ description: "One project's entries" }),
});

const auditLogDocs =
  'Every change made in the project, newest first: by people, keys, the admin token, the CLI and Herald itself. ' +
  'Entries are never changed or deleted, except by retention (RETENTION_AUDIT_DAYS).';

/** What the API reference says about each audit log route, by operationId (both read the one log). */
export const auditRouteDocs = {
  listAuditLog: auditLogDocs,
  adminListAuditLog: auditLogDocs,
} as const;

import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';

const body = z.unknown().meta({
  description:
    'The JSON body, with passwords, secrets, tokens, keys and attachment contents replaced (`[redacted]`, ' +
    '`[attachment: N bytes]`), cut at 10 KB; null when there was none (or it was not JSON)',
});

export const logEntrySchema = z
  .object({
    id: z.string(),
    at: isoDate.meta({ description: 'When the request arrived' }),
    method: z.string(),
    path: z.string().meta({ description: 'The URL path, without the query string' }),
    status: z.number().int(),
    durationMs: z.number().meta({ description: 'From the request’s arrival to its answer, in milliseconds' }),
    actor: z.object({
      type: z.enum(['user', 'key', 'admin', 'system']),
      id: z.string().nullable().meta({ description: "The key's or user's id" }),
      label: z.string().meta({ description: "A user's email, or a key's name and prefix" }),
    }),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    requestId: z.string().nullable(),
    requestBody: body,
    requestBodyCut: z.boolean().meta({ description: 'The request body was longer than what is kept' }),
    requestBytes: z.number().int().nullable().meta({ description: 'The request body’s size as sent' }),
    responseBody: body,
    responseBodyCut: z.boolean().meta({ description: 'The response body was longer than what is kept' }),
    responseBytes: z.number().int().nullable(),
  })
  .meta({ id: 'RequestLogEntry' });

const when = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

const STATUS = /^([1-5])(\d\d|xx)$/i;

export const logsQuery = paginationQuery.extend({
  method: z
    .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'])
    .transform((m) => m.toUpperCase())
    .optional(),
  path: z
    .string()
    .min(1)
    .max(500)
    .regex(/^\//, 'must start with /')
    .optional()
    .meta({ description: 'Requests whose path starts with this (`/contacts`, `/v1/send`)' }),
  status: z
    .string()
    .regex(STATUS, 'must be a status (422) or a class (4xx)')
    .transform((s) => {
      const [, hundreds, rest] = STATUS.exec(s)!;
      const base = Number(hundreds) * 100;
      return rest!.toLowerCase() === 'xx'
        ? { min: base, max: base + 99 }
        : { min: base + Number(rest), max: base + Number(rest) };
    })
    .optional()
    .meta({ description: 'One status (`422`) or a class (`2xx`, `4xx`, `5xx`)' }),
  keyId: z.uuid().optional().meta({ description: "One key's requests" }),
  userId: z.uuid().optional().meta({ description: "One signed-in person's requests" }),
  from: when.optional().meta({ description: 'Requests at or after this time (ISO 8601)' }),
  to: when.optional().meta({ description: 'Requests at or before this time (ISO 8601)' }),
});

/** What the API reference says about each request log route, by operationId. */
export const logsRouteDocs = {
  listLogs:
    "Every API request of the project, newest first: its keys' and its signed-in members', with both bodies " +
    '(secrets redacted, cut at 10 KB). Kept RETENTION_LOGS_DAYS (7 days).',
  getLog: 'One API request of the project, with both bodies.',
} as const;

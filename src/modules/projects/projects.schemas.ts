import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { KEY_SCOPES } from '../../lib/keys.ts';
import { nameSchema } from '../../lib/text.ts';

export const projectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    disabled: z.boolean(),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Project' });

export const createdProjectSchema = projectSchema.extend({
  secretKey: z.string(),
  publicKey: z.string(),
});

export const createProjectBody = z.object({ name: nameSchema() });
export const updateProjectBody = z.object({
  name: nameSchema().optional(),
  disabled: z.boolean().optional(),
});

const scopeSchema = z.enum(KEY_SCOPES).meta({
  description:
    '`full`: every route; `sending`: /v1/send, /v1/send/batch, /v1/track, /v1/verify, ' +
    '/v1/subscribe, GET /emails/{id}, the Resend email routes and the SMTP relay; ' +
    '`read`: GET routes only.',
});

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(['secret', 'public']),
    scope: scopeSchema,
    domainIds: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The sender domains this key may send from; null: any verified domain of the project.' }),
    session: z.boolean().meta({
      description:
        'A key the dashboard made for one sign-in: revoked when that session ends, or ' +
        'after 12 hours without a request.',
    }),
    prefix: z.string(),
    createdAt: isoDate,
    lastUsedAt: isoDate
      .nullable()
      .meta({ description: 'The last request made with the key (recorded at most once a minute).' }),
    expiresAt: isoDate.nullable(),
    revokedAt: isoDate.nullable(),
  })
  .meta({ id: 'ApiKey' });

const keyOptions = {
  name: nameSchema(100)
    .optional()
    .meta({ description: 'Shown in the keys list; defaults to "Secret key" or "Public key".' }),
  scope: scopeSchema.optional().meta({
    description:
      'What the key may do (default `full`). Public keys are always `full`: they only ' +
      'ever reach the tracking routes.',
  }),
  domainIds: z
    .array(z.uuid({ message: 'must be the id of a domain of this project' }))
    .min(1)
    .max(50)
    .optional()
    .meta({
      description:
        'Restrict a sending-scope key to these sender domains of the project (403 for any ' +
        'other sender; 422 with another scope).',
    }),
  expiresAt: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2030-01-31T09:00:00Z' })
    .refine((value) => Date.parse(value) > Date.now(), 'must be in the future')
    .optional()
    .meta({ description: 'After this the key answers 401; absent: it never expires.' }),
};

export const createKeyBody = z.object({
  type: z.enum(['secret', 'public']),
  ...keyOptions,
  session: z
    .boolean()
    .optional()
    .meta({
      description:
        'Make a session key: it stops working after 12 hours without a request, and can ' +
        'revoke itself (DELETE /api-keys/current).',
    }),
});
/** POST /api-keys: a project's full key making another key of its project (a secret key unless it says otherwise). */
export const createOwnKeyBody = z.object({ type: z.enum(['secret', 'public']).optional(), ...keyOptions });
export const createdKeySchema = apiKeySchema
  .omit({ lastUsedAt: true, revokedAt: true })
  .extend({ key: z.string().meta({ description: 'The key itself, shown only now.' }) });
export const keyParams = z.object({ id: z.string(), keyId: z.string() });

export const currentKeySchema = apiKeySchema
  .extend({ project: z.object({ id: z.string(), name: z.string() }) })
  .meta({ id: 'CurrentApiKey' });

/** What the API reference says about each project route, by operationId. */
export const projectRouteDocs = {
  listOwnApiKeys:
    'Every key, revoked ones included, newest first: prefixes only, keys are never shown again. Needs a full key.',
  createOwnApiKey:
    'A secret key unless `type` says `public`, with a `scope`, optional sender `domainIds` and ' +
    '`expiresAt`. The key is shown only now.',
  getCurrentApiKey:
    'Answers the calling key (name, type, whether it is a session key, prefix, last use) and the id and ' +
    'name of its project.',
  revokeCurrentSessionKey:
    'The dashboard calls this when its tab closes, so the key made for that sign-in stops working at ' +
    'once. Only a session key can revoke itself (403 for any other key).',
} as const;

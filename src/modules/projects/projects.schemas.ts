import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  disabled: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
}).meta({ id: 'Project' });

export const createdProjectSchema = projectSchema.extend({
  secretKey: z.string(),
  publicKey: z.string(),
});

export const createProjectBody = z.object({ name: nameSchema() });
export const updateProjectBody = z.object({
  name: nameSchema().optional(),
  disabled: z.boolean().optional(),
});

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['secret', 'public']),
  session: z.boolean().meta({ description: 'A key the dashboard made for one sign-in: revoked when that session ends, or after 12 hours without a request.' }),
  prefix: z.string(),
  createdAt: isoDate,
  lastUsedAt: isoDate.nullable(),
  revokedAt: isoDate.nullable(),
}).meta({ id: 'ApiKey' });

export const createKeyBody = z.object({
  type: z.enum(['secret', 'public']),
  name: nameSchema(100).optional().meta({ description: 'Shown in the keys list; defaults to "Secret key" or "Public key".' }),
  session: z.boolean().optional().meta({ description: 'Make a session key: it stops working after 12 hours without a request, and can revoke itself (DELETE /api-keys/current).' }),
});
export const createdKeySchema = z.object({ id: z.string(), name: z.string(), type: z.enum(['secret', 'public']), session: z.boolean(), key: z.string(), createdAt: isoDate });
export const keyParams = z.object({ id: z.string(), keyId: z.string() });

export const currentKeySchema = apiKeySchema.extend({ project: z.object({ id: z.string(), name: z.string() }) }).meta({ id: 'CurrentApiKey' });

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
  type: z.enum(['secret', 'public']),
  prefix: z.string(),
  createdAt: isoDate,
  revokedAt: isoDate.nullable(),
}).meta({ id: 'ApiKey' });

export const createKeyBody = z.object({ type: z.enum(['secret', 'public']) });
export const createdKeySchema = z.object({ id: z.string(), type: z.enum(['secret', 'public']), key: z.string(), createdAt: isoDate });
export const keyParams = z.object({ id: z.string(), keyId: z.string() });

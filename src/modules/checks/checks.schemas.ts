import { z } from 'zod';
import { CHECK_CODES } from './checks.types.ts';

export const checkCode = z.enum(CHECK_CODES);

export const checkResultSchema = z
  .object({
    score: z.number().int().min(0).max(100).meta({
      description: '100 with no issue; each error takes 25, each warning 10, each note (info) 2, never below 0',
    }),
    issues: z
      .array(
        z.object({
          code: checkCode,
          severity: z.enum(['error', 'warning', 'info']),
          message: z.string(),
          fix: z.string().meta({ description: 'What to change' }),
        }),
      )
      .meta({ description: 'Errors first. A send with an error is refused (409 CHECK_FAILED) unless forced.' }),
  })
  .meta({ id: 'CheckResult' });

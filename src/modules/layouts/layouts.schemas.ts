import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';

export const layoutFormat = z
  .enum(['html', 'mjml'])
  .meta({ description: 'html wraps html templates; mjml wraps mjml and block templates' });

export const layoutSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    format: layoutFormat,
    body: z.string().meta({ description: 'The source, with `{{ content }}` once where the message goes' }),
    isDefault: z.boolean().meta({ description: 'Used by templates and campaigns that name no layout' }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Layout' });

export const createLayoutBody = z.object({
  name: nameSchema(),
  format: layoutFormat,
  body: z.string().min(1).max(1_000_000),
});

export const updateLayoutBody = createLayoutBody.partial();

/** What the API reference says about each layout route, by operationId. */
export const layoutRouteDocs = {
  createLayout:
    'A frame for templates and campaigns: `body` holds `{{ content }}` exactly once (422 otherwise).\n\n' +
    'An mjml layout must compile; html layouts wrap html content, mjml layouts wrap mjml and blocks.',
  updateLayout:
    'Changes a layout, checked as on create.\n\nEvery template using it (directly, or as the default) ' +
    'is compiled again in the same transaction.',
  deleteLayout: 'Deletes a layout; 409 naming what uses it while a template or an unsent campaign does.',
} as const;

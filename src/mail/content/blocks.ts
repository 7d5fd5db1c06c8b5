// The block document: the dashboard's editor format, compiled to MJML on save (blocks-mjml.ts). The schema is not
// recursive: a columns block holds column blocks, which cannot be columns, so any deeper nesting is refused at
// the first level it does not fit, and parsing never goes deeper than the schema.
import { z } from 'zod';
import { isSafeImageSrc, isSafeUrl } from './urls.ts';

/**
 * Blocks in a document, those inside columns included. The compile runs on the caller's thread: 1,000 blocks took
 * 0.4–1 s of CPU once warm (social blocks the most); MAX_MJML_ELEMENTS (mjml.ts) bounds the heavier mixes.
 */
export const MAX_BLOCKS = 1_000;
/** Characters of one text or html field. */
export const MAX_HTML_LENGTH = 100_000;
/** Characters of the whole document as JSON. */
export const MAX_DOCUMENT_LENGTH = 1_000_000;
const MAX_PLAIN_LENGTH = 1_000;
const MAX_URL_LENGTH = 4_000;

const color = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: 'must be a colour: #rgb or #rrggbb' })
  .meta({ description: 'A colour, #rgb or #rrggbb' });
const align = z.enum(['left', 'center', 'right']);
const url = z
  .string()
  .max(MAX_URL_LENGTH)
  .refine(isSafeUrl, {
    error: 'must be an http(s) or mailto URL, or start with a Liquid output ({{ … }})',
    params: { code: 'invalid_url' },
  })
  .meta({ description: 'http(s) or mailto URL, or a Liquid output such as {{ manageUrl }}' });
const imageSrc = z
  .string()
  .max(MAX_URL_LENGTH)
  .refine(isSafeImageSrc, {
    error: 'must be an http(s) URL, or start with a Liquid output ({{ … }})',
    params: { code: 'invalid_url' },
  })
  .meta({ description: 'http(s) URL of the image, or a Liquid output' });
const plain = (max = MAX_PLAIN_LENGTH) => z.string().min(1).max(max);
const html = z.string().max(MAX_HTML_LENGTH);
const id = z
  .string()
  .max(64)
  .optional()
  .meta({ description: "The editor's key for the block; ignored when compiling" });

const heading = z.strictObject({
  id,
  type: z.literal('heading'),
  text: plain().meta({ description: 'Plain text; Liquid allowed' }),
  level: z.number().int().min(1).max(3),
  align: align.optional(),
});
const text = z.strictObject({
  id,
  type: z.literal('text'),
  html: html.meta({ description: 'Rich text: p, br, strong, em, a[href], ul, ol, li, span (colour only)' }),
});
const button = z.strictObject({
  id,
  type: z.literal('button'),
  text: plain(200),
  url,
  align: align.optional(),
  color: color.optional(),
  textColor: color.optional(),
});
const image = z.strictObject({
  id,
  type: z.literal('image'),
  src: imageSrc,
  alt: z.string().max(MAX_PLAIN_LENGTH),
  url: url.optional(),
  width: z.number().int().min(16).max(800).optional().meta({ description: 'Display width in px' }),
});
const divider = z.strictObject({ id, type: z.literal('divider') });
const spacer = z.strictObject({ id, type: z.literal('spacer'), height: z.number().int().min(4).max(200) });
/** Networks a social block links to; those without an MJML icon show the web icon and their name. */
export const SOCIAL_NETWORKS = [
  'facebook',
  'x',
  'instagram',
  'linkedin',
  'youtube',
  'github',
  'tiktok',
  'mastodon',
  'website',
] as const;
const social = z.strictObject({
  id,
  type: z.literal('social'),
  links: z
    .array(z.strictObject({ network: z.enum(SOCIAL_NETWORKS), url }))
    .min(1)
    .max(10),
});
const footer = z.strictObject({
  id,
  type: z.literal('footer'),
  html: html.optional().meta({ description: 'Rich text instead of the default unsubscribe and manage links' }),
  address: z.string().max(MAX_PLAIN_LENGTH).optional().meta({ description: 'Postal address, plain text' }),
});
const rawHtml = z.strictObject({
  id,
  type: z.literal('html'),
  html: html.meta({ description: 'HTML; scripts, event handlers and javascript: URLs are removed' }),
});

const columnBlock = z
  .discriminatedUnion('type', [heading, text, button, image, divider, spacer, social, footer, rawHtml], {
    error: (iss) =>
      (iss.input as { type?: unknown } | undefined)?.type === 'columns'
        ? 'columns cannot be nested: a column holds no columns block'
        : 'must be one of heading, text, button, image, divider, spacer, social, footer, html',
  })
  .meta({ description: 'A block inside a column: any type but columns' });
const columns = z.strictObject({
  id,
  type: z.literal('columns'),
  columns: z
    .array(z.strictObject({ blocks: z.array(columnBlock) }))
    .min(2)
    .max(3),
});
const block = z.discriminatedUnion(
  'type',
  [heading, text, button, image, divider, spacer, columns, social, footer, rawHtml],
  {
    error: 'must be one of heading, text, button, image, divider, spacer, columns, social, footer, html',
  },
);

const settings = z.strictObject({
  width: z.number().int().min(480).max(800).optional().meta({ description: 'Content width in px (600)' }),
  backgroundColor: color.optional().meta({ description: 'Page background, around the content' }),
  contentColor: color.optional().meta({ description: 'Background of the content' }),
  fontFamily: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9 ,'"-]+$/, { error: 'must be a plain font list, e.g. Helvetica, Arial, sans-serif' })
    .optional(),
  textColor: color.optional(),
  linkColor: color.optional().meta({ description: 'Links, and buttons without their own colour' }),
});

/** The block document as the API takes it and stores it (OpenAPI: BlockDocument). */
export const blockDocumentSchema = z
  .strictObject({
    version: z.literal(1),
    settings: settings.optional(),
    blocks: z.array(block),
  })
  .meta({ id: 'BlockDocument', description: 'An email as blocks, compiled to MJML then HTML on save' });

export type BlockDocument = z.infer<typeof blockDocumentSchema>;
export type Block = BlockDocument['blocks'][number];
export type ColumnBlock = z.infer<typeof columnBlock>;
export type BlockSettings = NonNullable<BlockDocument['settings']>;

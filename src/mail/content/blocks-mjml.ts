// A validated block document → MJML. Consecutive top-level blocks other than columns share one section (one
// column, full width); a columns block is a section of its own with 2 or 3 columns side by side. Text is escaped
// outside its Liquid; HTML fields go through the sanitiser. Colours and the font are set on each element, so
// the same sections keep them inside a layout; the page width and background belong to the <mj-body>.
import type { Block, BlockDocument, BlockSettings, ColumnBlock } from './blocks.ts';
import { contentError, ContentError, issue, type ContentIssue } from './errors.ts';
import { escapeOutsideLiquid } from './liquid.ts';
import { MAX_MJML_ELEMENTS } from './mjml.ts';
import { sanitizeRawHtml, sanitizeText, type Sanitized } from './sanitize.ts';

export interface FooterLabels {
  unsubscribe: string;
  manage: string;
}

/** The footer's link texts when the caller gives none (English). */
export const DEFAULT_LABELS: Readonly<FooterLabels> = Object.freeze({
  unsubscribe: 'Unsubscribe',
  manage: 'Manage preferences',
});

const DEFAULT_WIDTH = 600;
/** The font of a document without one; MJML's own default would load a web font. */
const DEFAULT_FONT = 'Helvetica, Arial, sans-serif';

interface Context {
  settings: BlockSettings;
  labels: FooterLabels;
  issues: ContentIssue[];
}

type Attributes = Record<string, string | number | undefined>;

/** ` name="value"` for each defined attribute, escaped outside Liquid. */
function attrs(attributes: Attributes): string {
  let out = '';
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) out += ` ${name}="${escapeOutsideLiquid(String(value))}"`;
  }
  return out;
}

/** Font lists are written with single quotes, so they sit inside double-quoted attributes as they are. */
const fontOf = (settings: BlockSettings): string | undefined => settings.fontFamily?.replace(/"/g, "'");

const HEADING_SIZES = { 1: 28, 2: 22, 3: 18 } as const;

const NETWORKS = {
  facebook: { icon: 'facebook', label: 'Facebook', text: false },
  x: { icon: 'x', label: 'X', text: false },
  instagram: { icon: 'instagram', label: 'Instagram', text: false },
  linkedin: { icon: 'linkedin', label: 'LinkedIn', text: false },
  youtube: { icon: 'youtube', label: 'YouTube', text: false },
  github: { icon: 'github', label: 'GitHub', text: false },
  // No icon of their own in MJML: the web icon, with the name beside it.
  tiktok: { icon: 'web', label: 'TikTok', text: true },
  mastodon: { icon: 'web', label: 'Mastodon', text: true },
  website: { icon: 'web', label: 'Website', text: false },
} as const;

/** The sanitised HTML; refused links and lost Liquid become issues of the field at `path`. */
function checked(result: Sanitized, path: string, ctx: Context): string {
  for (const href of result.badHrefs) {
    const shown = href.length > 80 ? `${href.slice(0, 77)}…` : href;
    ctx.issues.push(
      issue(path, 'invalid_url', `link href "${shown}" must be http(s), mailto or start with a Liquid output`),
    );
  }
  for (const token of result.lostLiquid) {
    ctx.issues.push(issue(path, 'invalid_block', `Liquid inside an HTML tag is not supported here: ${token}`));
  }
  return result.html;
}

function textElement(inner: string, extra: Attributes, ctx: Context): string {
  const { settings } = ctx;
  const style = { color: settings.textColor, 'font-family': fontOf(settings), ...extra };
  return `<mj-text${attrs(style)}>${inner}</mj-text>`;
}

function heading(block: Extract<Block, { type: 'heading' }>, ctx: Context): string {
  const size = HEADING_SIZES[block.level as 1 | 2 | 3];
  const tag = `h${block.level}`;
  const style = `margin:0;font-size:${size}px;line-height:1.3;font-weight:700;`;
  const inner = `<${tag} style="${style}">${escapeOutsideLiquid(block.text)}</${tag}>`;
  return textElement(inner, { align: block.align, 'font-size': `${size}px`, 'line-height': '1.3' }, ctx);
}

function footer(block: Extract<Block, { type: 'footer' }>, path: string, ctx: Context): string {
  const linkColor = ctx.settings.linkColor;
  const linkStyle = linkColor ? ` style="color:${linkColor}"` : '';
  const address = block.address ? `${escapeOutsideLiquid(block.address).replace(/\r?\n/g, '<br>')}<br>` : '';
  const unsubscribe = escapeOutsideLiquid(ctx.labels.unsubscribe);
  const manage = escapeOutsideLiquid(ctx.labels.manage);
  const body =
    block.html !== undefined
      ? checked(sanitizeText(block.html, linkColor), `${path}.html`, ctx)
      : `{% if unsubscribeUrl %}<a href="{{ unsubscribeUrl }}"${linkStyle}>${unsubscribe}</a>{% endif %}` +
        `{% if manageUrl %}{% if unsubscribeUrl %} · {% endif %}` +
        `<a href="{{ manageUrl }}"${linkStyle}>${manage}</a>{% endif %}`;
  return textElement(address + body, { align: 'center', 'font-size': '12px', 'line-height': '1.5' }, ctx);
}

function social(block: Extract<Block, { type: 'social' }>, ctx: Context): string {
  const font = fontOf(ctx.settings);
  const elements = block.links.map(({ network, url }) => {
    const { icon, label, text } = NETWORKS[network];
    const attributes = { name: `${icon}-noshare`, href: url, alt: label, title: label };
    return `<mj-social-element${attrs(text ? { ...attributes, color: ctx.settings.textColor } : attributes)}>${
      text ? label : ''
    }</mj-social-element>`;
  });
  const attributes = { align: 'center', mode: 'horizontal', 'icon-size': '28px', 'font-family': font };
  return `<mj-social${attrs(attributes)}>${elements.join('')}</mj-social>`;
}

/** The MJML of one block that sits in a column. */
function columnElement(block: ColumnBlock, path: string, ctx: Context): string {
  const { settings } = ctx;
  switch (block.type) {
    case 'heading':
      return heading(block, ctx);
    case 'text': {
      const html = checked(sanitizeText(block.html, settings.linkColor), `${path}.html`, ctx);
      return textElement(html, { 'font-size': '16px', 'line-height': '1.5' }, ctx);
    }
    case 'button': {
      const attributes = {
        href: block.url,
        align: block.align,
        'background-color': block.color ?? settings.linkColor,
        color: block.textColor,
        'font-family': fontOf(settings),
        'font-size': '16px',
        'inner-padding': '12px 24px',
        'border-radius': '4px',
      };
      return `<mj-button${attrs(attributes)}>${escapeOutsideLiquid(block.text)}</mj-button>`;
    }
    case 'image': {
      const width = block.width === undefined ? undefined : `${block.width}px`;
      return `<mj-image${attrs({ src: block.src, alt: block.alt, href: block.url, width })} />`;
    }
    case 'divider':
      return `<mj-divider${attrs({ 'border-width': '1px', 'border-color': '#e5e7eb' })} />`;
    case 'spacer':
      return `<mj-spacer height="${block.height}px" />`;
    case 'social':
      return social(block, ctx);
    case 'footer':
      return footer(block, path, ctx);
    case 'html':
      return `<mj-text padding="0px">${checked(sanitizeRawHtml(block.html), `${path}.html`, ctx)}</mj-text>`;
  }
}

function sectionOpen(ctx: Context): string {
  return `<mj-section${attrs({ 'background-color': ctx.settings.contentColor, padding: '10px 0px' })}>`;
}

const elementsOf = (block: Block | ColumnBlock): number => (block.type === 'social' ? 1 + block.links.length : 1);

/**
 * MJML elements the document compiles to: sections, columns, one per block and one per social link, and the five of
 * the document around them (mjml, mj-head, mj-attributes, mj-all, mj-body).
 */
function elementCount(doc: BlockDocument): number {
  let count = 5;
  let grouped = false;
  for (const block of doc.blocks) {
    if (block.type === 'columns') {
      count += 1 + block.columns.length;
      for (const column of block.columns) count += column.blocks.reduce((sum, child) => sum + elementsOf(child), 0);
    } else {
      count += (grouped ? 0 : 2) + elementsOf(block);
    }
    grouped = block.type !== 'columns';
  }
  return count;
}

/** The `<mj-section>`s of the document's blocks; issues found in HTML fields are thrown together. */
export function blocksToSections(doc: BlockDocument, field: string, labels: FooterLabels = DEFAULT_LABELS): string {
  const elements = elementCount(doc);
  if (elements > MAX_MJML_ELEMENTS) {
    const [count, limit] = [elements, MAX_MJML_ELEMENTS].map((n) => n.toLocaleString('en-US'));
    throw contentError(
      `${field}.blocks`,
      'too_many_blocks',
      `the document compiles to ${count} MJML elements (sections, columns, blocks, social links); at most ${limit}`,
    );
  }
  const ctx: Context = { settings: doc.settings ?? {}, labels, issues: [] };
  const sections: string[] = [];
  let group: string[] = [];
  const closeGroup = () => {
    if (group.length > 0) sections.push(`${sectionOpen(ctx)}<mj-column>${group.join('\n')}</mj-column></mj-section>`);
    group = [];
  };
  doc.blocks.forEach((block, i) => {
    const path = `${field}.blocks[${i}]`;
    if (block.type !== 'columns') {
      group.push(columnElement(block, path, ctx));
      return;
    }
    closeGroup();
    const columns = block.columns.map((column, c) => {
      const children = column.blocks.map((child, j) => columnElement(child, `${path}.columns[${c}].blocks[${j}]`, ctx));
      return `<mj-column vertical-align="top">${children.join('\n')}</mj-column>`;
    });
    sections.push(`${sectionOpen(ctx)}${columns.join('')}</mj-section>`);
  });
  closeGroup();
  if (ctx.issues.length > 0) throw new ContentError(ctx.issues);
  return sections.join('\n');
}

/** The whole MJML document of a block document without a layout. */
export function blocksToMjml(doc: BlockDocument, field: string, labels: FooterLabels = DEFAULT_LABELS): string {
  const settings = doc.settings ?? {};
  const font = fontOf(settings) ?? DEFAULT_FONT;
  const body = attrs({ width: `${settings.width ?? DEFAULT_WIDTH}px`, 'background-color': settings.backgroundColor });
  return (
    `<mjml>\n<mj-head><mj-attributes><mj-all${attrs({ 'font-family': font })} /></mj-attributes></mj-head>\n` +
    `<mj-body${body}>\n${blocksToSections(doc, field, labels)}\n</mj-body>\n</mjml>\n`
  );
}

// A message's content as templates and campaigns hold it: a format, its source (HTML `body`, an MJML string or a
// block document in `content`), a layout choice and translations; and the texts versions are compared by.
import { isBlockDocument, starterDocument, type BlockDocument } from './blocks.ts';
import { withIds } from './block-tree.ts';

export type ContentFormat = 'html' | 'mjml' | 'blocks';

export const FORMATS: readonly { value: ContentFormat; label: string; hint: string }[] = [
  { value: 'html', label: 'HTML', hint: 'Write the HTML yourself, with Liquid variables.' },
  { value: 'mjml', label: 'MJML', hint: 'Responsive email markup, compiled to HTML on save.' },
  { value: 'blocks', label: 'Blocks', hint: 'Build it from blocks: headings, text, buttons, images, columns…' },
];

/** One language's subject and content; what it leaves out comes from the default. */
export interface Translation {
  subject?: string;
  body?: string;
  content?: unknown;
}

export type Translations = Record<string, Translation>;

/**
 * The layout a message is put in, as requests give it: undefined for the project's default, null for none, or a
 * layout's id.
 */
export type LayoutChoice = string | null | undefined;

/** The source of one message (the default, or a translation) in the editor. */
export interface Source {
  /** format html: the HTML. */
  body: string;
  /** format mjml: the MJML text; blocks: the document (ids on every block). */
  content: string | BlockDocument | null;
}

export const STARTER_HTML = '<p>Hello {{ firstName ?? "there" }},</p>\n<p>…</p>';

/** A new MJML message: web-safe fonts (MJML's default font would be fetched from another host). */
export const STARTER_MJML = `<mjml>
  <mj-head>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
    </mj-attributes>
  </mj-head>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text font-size="20px">Hello {{ firstName ?? "there" }},</mj-text>
        <mj-text>…</mj-text>
        <mj-button href="https://example.com">Open</mj-button>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`;

/** What a new message of a format starts with. */
export function starterSource(format: ContentFormat): Source {
  if (format === 'mjml') return { body: '', content: STARTER_MJML };
  if (format === 'blocks') return { body: '', content: starterDocument() };
  return { body: STARTER_HTML, content: null };
}

/** The content an answer gave, as the editor opens it: MJML as text, a block document with ids. */
export function openContent(format: ContentFormat, content: unknown): Source['content'] {
  if (format === 'mjml') return typeof content === 'string' ? content : '';
  if (format === 'blocks') return isBlockDocument(content) ? withIds(content) : { version: 1, blocks: [] };
  return null;
}

/** A source as one text (HTML, MJML, or a block document as indented JSON): what versions are compared by. */
export function sourceText(format: ContentFormat, body: string | undefined, content: unknown): string {
  if (format === 'html') return body ?? '';
  if (format === 'mjml') return typeof content === 'string' ? content : '';
  return content === undefined || content === null ? '' : JSON.stringify(content, null, 2);
}

/** What a version says, as the text a diff compares: subject, sender, layout, source, then each translation. */
export function versionText(v: {
  subject: string;
  format: ContentFormat;
  body: string;
  content: unknown;
  from?: string | null;
  fromName?: string | null;
  replyTo?: string | null;
  layoutId?: string | null;
  translations: Translations | null;
}): string {
  const lines = [`Subject: ${v.subject}`];
  if (v.from !== undefined) lines.push(`From: ${v.fromName ? `${v.fromName} <${v.from ?? ''}>` : (v.from ?? '')}`);
  if (v.replyTo) lines.push(`Reply-To: ${v.replyTo}`);
  lines.push(`Layout: ${v.layoutId === undefined ? 'project default' : (v.layoutId ?? 'none')}`, '');
  lines.push(sourceText(v.format, v.body, v.content));
  for (const [tag, t] of Object.entries(v.translations ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    lines.push('', `--- Translation ${tag} ---`);
    if (t.subject !== undefined) lines.push(`Subject: ${t.subject}`);
    const source = sourceText(v.format, t.body, t.content);
    if (source) lines.push(source);
  }
  return `${lines.join('\n')}\n`;
}

/** The line an MJML problem names (`line 12: …`), or null. */
export function lineOf(message: string): number | null {
  const match = /^line (\d+):/.exec(message);
  return match ? Number(match[1]) : null;
}

/** A value as JSON with every object's keys sorted: two values that mean the same give the same text (the database
 * may answer an object's keys in another order than they were sent). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

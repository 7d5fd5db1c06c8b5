// The block document the editor builds (the server's BlockDocument): its block types, what each new one holds, and
// how each reads in the editor's list. Its edits are in block-tree.ts.

export type Align = 'left' | 'center' | 'right';
export type SocialNetwork =
  | 'facebook'
  | 'x'
  | 'instagram'
  | 'linkedin'
  | 'youtube'
  | 'github'
  | 'tiktok'
  | 'mastodon'
  | 'website';

export const SOCIAL_NETWORKS: readonly SocialNetwork[] = [
  'facebook',
  'x',
  'instagram',
  'linkedin',
  'youtube',
  'github',
  'tiktok',
  'mastodon',
  'website',
];

interface Keyed {
  /** The editor's key for the block (sorting, selection); the server ignores it when compiling. */
  id?: string;
}

export type HeadingBlock = Keyed & { type: 'heading'; text: string; level: 1 | 2 | 3; align?: Align };
export type TextBlock = Keyed & { type: 'text'; html: string };
export type ButtonBlock = Keyed & {
  type: 'button';
  text: string;
  url: string;
  align?: Align;
  color?: string;
  textColor?: string;
};
export type ImageBlock = Keyed & { type: 'image'; src: string; alt: string; url?: string; width?: number };
export type DividerBlock = Keyed & { type: 'divider' };
export type SpacerBlock = Keyed & { type: 'spacer'; height: number };
export type SocialBlock = Keyed & { type: 'social'; links: { network: SocialNetwork; url: string }[] };
export type FooterBlock = Keyed & { type: 'footer'; html?: string; address?: string };
export type HtmlBlock = Keyed & { type: 'html'; html: string };

/** A block a column may hold: any but columns. */
export type ColumnBlock =
  | HeadingBlock
  | TextBlock
  | ButtonBlock
  | ImageBlock
  | DividerBlock
  | SpacerBlock
  | SocialBlock
  | FooterBlock
  | HtmlBlock;
export type ColumnsBlock = Keyed & { type: 'columns'; columns: { blocks: ColumnBlock[] }[] };
export type Block = ColumnBlock | ColumnsBlock;
export type BlockType = Block['type'];

export interface DocumentSettings {
  width?: number;
  backgroundColor?: string;
  contentColor?: string;
  fontFamily?: string;
  textColor?: string;
  linkColor?: string;
}

export interface BlockDocument {
  version: 1;
  settings?: DocumentSettings;
  blocks: Block[];
}

/** The palette's order, with the name each type is shown under. */
export const BLOCK_TYPES: readonly { type: BlockType; label: string; noun: string }[] = [
  { type: 'heading', label: 'Heading', noun: 'heading' },
  { type: 'text', label: 'Text', noun: 'text' },
  { type: 'button', label: 'Button', noun: 'button' },
  { type: 'image', label: 'Image', noun: 'image' },
  { type: 'divider', label: 'Divider', noun: 'divider' },
  { type: 'spacer', label: 'Spacer', noun: 'spacer' },
  { type: 'columns', label: 'Columns', noun: 'columns' },
  { type: 'social', label: 'Social links', noun: 'social links' },
  { type: 'footer', label: 'Footer', noun: 'footer' },
  { type: 'html', label: 'HTML', noun: 'HTML' },
];

export const labelOf = (type: BlockType) => BLOCK_TYPES.find((t) => t.type === type)?.label ?? type;

/** A new block of a type, with content that compiles as it is. */
export function newBlock(type: BlockType, id: string): Block {
  switch (type) {
    case 'heading':
      return { id, type, text: 'A heading', level: 1 };
    case 'text':
      return { id, type, html: '<p>Write something.</p>' };
    case 'button':
      return { id, type, text: 'Open', url: 'https://example.com', align: 'center' };
    case 'image':
      return { id, type, src: 'https://placehold.co/600x200.png', alt: 'An image' };
    case 'divider':
      return { id, type };
    case 'spacer':
      return { id, type, height: 24 };
    case 'columns':
      return { id, type, columns: [{ blocks: [] }, { blocks: [] }] };
    case 'social':
      return { id, type, links: [{ network: 'website', url: 'https://example.com' }] };
    case 'footer':
      return { id, type };
    case 'html':
      return { id, type, html: '<p>HTML</p>' };
  }
}

/** An empty document, as a new blocks template starts. */
export const starterDocument = (): BlockDocument => ({
  version: 1,
  blocks: [{ id: 'b1', type: 'text', html: '<p>Hello {{ firstName ?? "there" }},</p>' }],
});

/** A one-line description of a block for the list (plain text, shortened). */
export function summaryOf(block: Block): string {
  const plain = (html: string) =>
    html
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const cut = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);
  switch (block.type) {
    case 'heading':
      return cut(block.text);
    case 'text':
    case 'html':
      return cut(plain(block.html)) || '(empty)';
    case 'button':
      return cut(`${block.text} → ${block.url}`);
    case 'image':
      return cut(block.alt || block.src);
    case 'divider':
      return 'A line';
    case 'spacer':
      return `${block.height} px of space`;
    case 'columns':
      return `${block.columns.length} columns`;
    case 'social':
      return cut(block.links.map((l) => l.network).join(', '));
    case 'footer':
      return cut(block.address || 'Unsubscribe and manage links');
  }
}

/** Whether a value is a block document as the editor can open it. */
export function isBlockDocument(value: unknown): value is BlockDocument {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { version?: unknown }).version === 1 &&
    Array.isArray((value as { blocks?: unknown }).blocks)
  );
}

// The edits the block editor makes to a document, each a pure function that answers a new document (the editor's
// history keeps the old ones), and the ids that key blocks for sorting and selection.
import type { Block, BlockDocument, ColumnBlock, ColumnsBlock } from './blocks.ts';

/** Every block of a document, those inside columns included. */
export function allBlocks(doc: BlockDocument): Block[] {
  return doc.blocks.flatMap((b) => (b.type === 'columns' ? [b, ...b.columns.flatMap((c) => c.blocks)] : [b]));
}

const NUMBERED = /^b(\d+)$/;

/** An id no block of the document has: `b` and the next number. */
export function freshId(doc: BlockDocument): string {
  const taken = allBlocks(doc).map((b) => Number(NUMBERED.exec(b.id ?? '')?.[1] ?? 0));
  return `b${Math.max(0, ...taken) + 1}`;
}

/**
 * The document with an id on every block (a document written through the API may have none), numbered in order
 * after the highest id it has; the same document gives the same ids, so an unchanged one compares equal.
 */
export function withIds(doc: BlockDocument): BlockDocument {
  let next = Number(freshId(doc).slice(1));
  const seen = new Set<string>();
  const keyed = <B extends Block>(block: B): B => {
    if (block.id && !seen.has(block.id)) {
      seen.add(block.id);
      return block;
    }
    const id = `b${next++}`;
    seen.add(id);
    return { ...block, id };
  };
  return {
    ...doc,
    blocks: doc.blocks.map((b) => {
      const block = keyed(b);
      return block.type === 'columns'
        ? { ...block, columns: block.columns.map((c) => ({ blocks: c.blocks.map(keyed) })) }
        : block;
    }),
  };
}

/** Where a list of blocks is: the document's (column null) or one column's of a columns block. */
export interface ListRef {
  parent: string | null;
  column: number;
}

export const TOP: ListRef = { parent: null, column: 0 };

/** The blocks of a list. */
export function listOf(doc: BlockDocument, ref: ListRef): Block[] {
  if (ref.parent === null) return doc.blocks;
  const parent = doc.blocks.find((b) => b.id === ref.parent);
  return parent?.type === 'columns' ? (parent.columns[ref.column]?.blocks ?? []) : [];
}

/** The document with one list replaced by `edit` of it. */
export function editList(doc: BlockDocument, ref: ListRef, edit: (blocks: Block[]) => Block[]): BlockDocument {
  if (ref.parent === null) return { ...doc, blocks: edit(doc.blocks) };
  return {
    ...doc,
    blocks: doc.blocks.map((b) =>
      b.id === ref.parent && b.type === 'columns'
        ? {
            ...b,
            columns: b.columns.map((c, i) =>
              i === ref.column ? { blocks: edit(c.blocks).filter((x): x is ColumnBlock => x.type !== 'columns') } : c,
            ),
          }
        : b,
    ),
  };
}

/** The list holding a block, and its place in it. */
export function locate(doc: BlockDocument, id: string): { ref: ListRef; index: number } | null {
  const top = doc.blocks.findIndex((b) => b.id === id);
  if (top >= 0) return { ref: TOP, index: top };
  for (const b of doc.blocks) {
    if (b.type !== 'columns') continue;
    for (const [column, c] of b.columns.entries()) {
      const index = c.blocks.findIndex((x) => x.id === id);
      if (index >= 0) return { ref: { parent: b.id!, column }, index };
    }
  }
  return null;
}

export const findBlock = (doc: BlockDocument, id: string): Block | null =>
  allBlocks(doc).find((b) => b.id === id) ?? null;

/** `list` with the item at `from` moved to `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

/** The document with a block replaced by `change` of it. */
export function updateBlock(doc: BlockDocument, id: string, change: (b: Block) => Block): BlockDocument {
  const place = locate(doc, id);
  if (!place) return doc;
  return editList(doc, place.ref, (list) => list.map((b, i) => (i === place.index ? change(b) : b)));
}

export function removeBlock(doc: BlockDocument, id: string): BlockDocument {
  const place = locate(doc, id);
  return place ? editList(doc, place.ref, (list) => list.filter((_, i) => i !== place.index)) : doc;
}

/** A copy of a block (and of what its columns hold) under fresh ids, right after it; the copy's id. */
export function duplicateBlock(doc: BlockDocument, id: string): { doc: BlockDocument; id: string | null } {
  const place = locate(doc, id);
  const block = findBlock(doc, id);
  if (!place || !block) return { doc, id: null };
  let next = Number(freshId(doc).slice(1));
  const copyId = `b${next++}`;
  const copy: Block =
    block.type === 'columns'
      ? {
          ...block,
          id: copyId,
          columns: block.columns.map((c) => ({ blocks: c.blocks.map((x) => ({ ...x, id: `b${next++}` })) })),
        }
      : { ...block, id: copyId };
  const edited = editList(doc, place.ref, (list) => [
    ...list.slice(0, place.index + 1),
    copy,
    ...list.slice(place.index + 1),
  ]);
  return { doc: edited, id: copyId };
}

/** The document with `block` inserted into a list at `index` (the end when absent). */
export function insertBlock(doc: BlockDocument, ref: ListRef, block: Block, index?: number): BlockDocument {
  return editList(doc, ref, (list) => {
    const at = index ?? list.length;
    return [...list.slice(0, at), block, ...list.slice(at)];
  });
}

/** A columns block with 2 or 3 columns; the blocks of a column dropped move into the last one kept. */
export function setColumnCount(block: ColumnsBlock, count: 2 | 3): ColumnsBlock {
  const columns = block.columns.slice(0, count);
  while (columns.length < count) columns.push({ blocks: [] });
  const dropped = block.columns.slice(count).flatMap((c) => c.blocks);
  const last = columns[count - 1]!;
  columns[count - 1] = { blocks: [...last.blocks, ...dropped] };
  return { ...block, columns };
}

/** A block's path in the document as the API's errors name it: `blocks[2]`, `blocks[2].columns[0].blocks[1]`. */
export function pathOf(doc: BlockDocument, id: string): string | null {
  const place = locate(doc, id);
  if (!place) return null;
  if (place.ref.parent === null) return `blocks[${place.index}]`;
  const parent = doc.blocks.findIndex((b) => b.id === place.ref.parent);
  return `blocks[${parent}].columns[${place.ref.column}].blocks[${place.index}]`;
}

import { describe, expect, it } from 'vitest';
import type { BlockDocument } from './blocks.ts';
import {
  duplicateBlock,
  editList,
  freshId,
  insertBlock,
  locate,
  moveItem,
  pathOf,
  removeBlock,
  setColumnCount,
  TOP,
  withIds,
} from './block-tree.ts';

const doc: BlockDocument = {
  version: 1,
  blocks: [
    { id: 'b1', type: 'heading', text: 'Hi', level: 1 },
    {
      id: 'b2',
      type: 'columns',
      columns: [{ blocks: [{ id: 'b3', type: 'divider' }] }, { blocks: [{ id: 'b7', type: 'spacer', height: 8 }] }],
    },
    { id: 'b4', type: 'text', html: '<p>x</p>' },
  ],
};

describe('block tree edits', () => {
  it('numbers blocks without ids after the highest one, the same way each time', () => {
    const bare: BlockDocument = { version: 1, blocks: [{ type: 'divider' }, { id: 'b5', type: 'divider' }] };
    expect(withIds(bare).blocks.map((b) => b.id)).toEqual(['b6', 'b5']);
    expect(withIds(bare)).toEqual(withIds(bare));
    expect(freshId(doc)).toBe('b8');
  });

  it('finds a block in a column and names its path as the API does', () => {
    expect(locate(doc, 'b7')).toEqual({ ref: { parent: 'b2', column: 1 }, index: 0 });
    expect(pathOf(doc, 'b4')).toBe('blocks[2]');
    expect(pathOf(doc, 'b7')).toBe('blocks[1].columns[1].blocks[0]');
  });

  it('moves, inserts and removes without touching the document it was given', () => {
    const moved = editList(doc, TOP, (list) => moveItem(list, 2, 0));
    expect(moved.blocks.map((b) => b.id)).toEqual(['b4', 'b1', 'b2']);
    expect(doc.blocks.map((b) => b.id)).toEqual(['b1', 'b2', 'b4']);
    const inColumn = insertBlock(doc, { parent: 'b2', column: 0 }, { id: 'b9', type: 'divider' }, 0);
    expect(locate(inColumn, 'b9')).toEqual({ ref: { parent: 'b2', column: 0 }, index: 0 });
    expect(locate(removeBlock(doc, 'b3'), 'b3')).toBeNull();
  });

  it('duplicates a columns block and its blocks under fresh ids, right after it', () => {
    const { doc: copied, id } = duplicateBlock(doc, 'b2');
    expect(id).toBe('b8');
    expect(copied.blocks.map((b) => b.id)).toEqual(['b1', 'b2', 'b8', 'b4']);
    const copy = copied.blocks[2]!;
    expect(copy.type === 'columns' && copy.columns.map((c) => c.blocks.map((b) => b.id))).toEqual([['b9'], ['b10']]);
  });

  it('keeps the blocks of a column dropped in the last one kept', () => {
    const three = setColumnCount(doc.blocks[1] as Extract<BlockDocument['blocks'][number], { type: 'columns' }>, 3);
    expect(three.columns).toHaveLength(3);
    const two = setColumnCount(
      { ...three, columns: [...three.columns.slice(0, 2), { blocks: [{ type: 'divider' }] }] },
      2,
    );
    expect(two.columns[1]!.blocks.map((b) => b.type)).toEqual(['spacer', 'divider']);
  });
});

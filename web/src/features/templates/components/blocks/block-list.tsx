import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { labelOf, type Block, type BlockDocument, type BlockType } from '../../model/blocks.ts';
import { listOf, type ListRef } from '../../model/block-tree.ts';
import { BlockItem } from './block-item.tsx';

/** What the list's buttons and drags do to the document (the editor keeps it, with its history). */
export interface BlockActions {
  select(id: string): void;
  move(id: string, by: -1 | 1): void;
  reorder(ref: ListRef, from: number, to: number): void;
  duplicate(id: string): void;
  remove(id: string): void;
  add(ref: ListRef, type: BlockType): void;
}

export interface BlockListProps {
  doc: BlockDocument;
  listRef: ListRef;
  /** The accessible name of the list ("Blocks", "Column 1"). */
  label: string;
  selected: string | null;
  readOnly: boolean;
  /** The API's name of the document in errors: `content`, `translations.de.content`. */
  errorPath: string;
  actions: BlockActions;
}

/** What a screen reader hears while a block is dragged: blocks by their type and place, not their keys. */
function announcements(blocks: Block[]): Announcements {
  const name = (id: UniqueIdentifier) => {
    const index = blocks.findIndex((b) => b.id === id);
    return index < 0 ? 'the block' : `${labelOf(blocks[index]!.type)} block ${index + 1}`;
  };
  const place = (id: UniqueIdentifier | undefined) =>
    id === undefined
      ? 'outside the list'
      : `at position ${blocks.findIndex((b) => b.id === id) + 1} of ${blocks.length}`;
  return {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}.`,
    onDragOver: ({ active, over }) => `${name(active.id)} is ${place(over?.id)}.`,
    onDragEnd: ({ active, over }) => `${name(active.id)} was dropped ${place(over?.id)}.`,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled.`,
  };
}

/**
 * One list of blocks (the document's, or a column's), sortable by dragging a block's handle with a pointer or with
 * the keyboard (Space picks it up, the arrow keys move it, Space drops it, Escape cancels).
 */
export function BlockList(props: BlockListProps) {
  const { doc, listRef, label, actions } = props;
  const blocks = listOf(doc, listRef);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = blocks.map((b) => b.id!);
  const dropped = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) actions.reorder(listRef, from, to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={dropped}
      accessibility={{ announcements: announcements(blocks) }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul className="block-list" aria-label={label}>
          {blocks.map((block, index) => (
            <BlockItem key={block.id} {...props} block={block} index={index} count={blocks.length} />
          ))}
        </ul>
        {blocks.length === 0 && <p className="muted block-list-empty">No blocks yet.</p>}
      </SortableContext>
    </DndContext>
  );
}

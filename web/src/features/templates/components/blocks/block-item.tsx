import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, Copy, GripVertical, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { BLOCK_TYPES, labelOf, summaryOf, type Block, type BlockType } from '../../model/blocks.ts';
import { pathOf } from '../../model/block-tree.ts';
import { useHasErrorsUnder } from '../field-errors.tsx';
import { BLOCK_ICONS } from './block-icons.ts';
import { BlockList, type BlockListProps } from './block-list.tsx';

type ItemProps = BlockListProps & { block: Block; index: number; count: number };

/** A column's own "add a block" control: a type (any but columns) and a button. */
function ColumnAdd({ column, onAdd }: { column: number; onAdd: (type: BlockType) => void }) {
  const id = useId();
  const [type, setType] = useState<BlockType>('text');
  return (
    <div className="column-add">
      <label htmlFor={id} className="visually-hidden">
        Block type for column {column}
      </label>
      <select id={id} value={type} onChange={(e) => setType(e.target.value as BlockType)}>
        {BLOCK_TYPES.filter((t) => t.type !== 'columns').map((t) => (
          <option key={t.type} value={t.type}>
            {t.label}
          </option>
        ))}
      </select>
      <button type="button" className="secondary small" onClick={() => onAdd(type)}>
        Add to column {column}
      </button>
    </div>
  );
}

/** The buttons that move, copy and delete a block: the keyboard's way, besides dragging. */
function ItemActions({ block, index, count, actions }: ItemProps) {
  const id = block.id!;
  return (
    <div className="block-actions">
      <button
        type="button"
        className="secondary small icon-only"
        aria-label="Move block up"
        title="Move up"
        data-action="up"
        disabled={index === 0}
        onClick={() => actions.move(id, -1)}
      >
        <ArrowUp className="icon" aria-hidden="true" />
      </button>
      <button
        type="button"
        className="secondary small icon-only"
        aria-label="Move block down"
        title="Move down"
        data-action="down"
        disabled={index === count - 1}
        onClick={() => actions.move(id, 1)}
      >
        <ArrowDown className="icon" aria-hidden="true" />
      </button>
      <button
        type="button"
        className="secondary small icon-only"
        aria-label="Duplicate block"
        title="Duplicate"
        onClick={() => actions.duplicate(id)}
      >
        <Copy className="icon" aria-hidden="true" />
      </button>
      <button
        type="button"
        className="danger small icon-only"
        aria-label="Delete block"
        title="Delete"
        onClick={() => actions.remove(id)}
      >
        <Trash2 className="icon" aria-hidden="true" />
      </button>
    </div>
  );
}

/** One block of a list: its handle, what it says, its buttons, and for columns the lists of its columns. */
export function BlockItem(props: ItemProps) {
  const { block, index, doc, selected, readOnly, errorPath, actions } = props;
  const id = block.id!;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: readOnly,
  });
  const invalid = useHasErrorsUnder(`${errorPath}.${pathOf(doc, id) ?? ''}`);
  const Icon = BLOCK_ICONS[block.type];
  const label = labelOf(block.type);
  const classes = ['block-item', selected === id && 'selected', invalid && 'invalid', isDragging && 'dragging'];
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={classes.filter(Boolean).join(' ')}
      data-block-id={id}
      data-block-type={block.type}
    >
      <div className="block-row">
        {!readOnly && (
          <button
            type="button"
            className="secondary small icon-only drag-handle"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={`Drag ${label.toLowerCase()} block ${index + 1}`}
          >
            <GripVertical className="icon" aria-hidden="true" />
          </button>
        )}
        <button
          type="button"
          className="block-summary"
          aria-pressed={selected === id}
          data-action="select"
          onClick={() => actions.select(id)}
        >
          <Icon className="icon" aria-hidden="true" />
          <strong>{label}</strong>
          <span className="block-text">{summaryOf(block)}</span>
        </button>
        {!readOnly && <ItemActions {...props} />}
      </div>
      {invalid && <p className="field-error">This block has a problem: select it to see which.</p>}
      {block.type === 'columns' && (
        <div className={`block-columns cols-${block.columns.length}`}>
          {block.columns.map((_, column) => (
            <div key={column} className="block-column" role="group" aria-label={`Column ${column + 1}`}>
              <BlockList {...props} listRef={{ parent: id, column }} label={`Column ${column + 1} blocks`} />
              {!readOnly && (
                <ColumnAdd column={column + 1} onAdd={(type) => actions.add({ parent: id, column }, type)} />
              )}
            </div>
          ))}
        </div>
      )}
    </li>
  );
}

import { BLOCK_TYPES, type BlockType } from '../../model/blocks.ts';
import { BLOCK_ICONS } from './block-icons.ts';

/** A button per block type: adds one after the selected block (at the end when none is selected). */
export function BlockPalette({ onAdd }: { onAdd: (type: BlockType) => void }) {
  return (
    <div className="block-palette" role="group" aria-label="Add a block">
      {BLOCK_TYPES.map(({ type, label, noun }) => {
        const Icon = BLOCK_ICONS[type];
        return (
          <button
            key={type}
            type="button"
            className="secondary small"
            aria-label={`Add ${noun}`}
            onClick={() => onAdd(type)}
          >
            <Icon className="icon" aria-hidden="true" />
            {label}
          </button>
        );
      })}
    </div>
  );
}

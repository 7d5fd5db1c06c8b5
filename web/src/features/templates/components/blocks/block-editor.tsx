import { Redo2, Undo2 } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { newBlock, type BlockDocument, type BlockType } from '../../model/blocks.ts';
import {
  duplicateBlock,
  editList,
  findBlock,
  freshId,
  insertBlock,
  listOf,
  locate,
  moveItem,
  pathOf,
  removeBlock,
  TOP,
  updateBlock,
  type ListRef,
} from '../../model/block-tree.ts';
import { ReadOnly } from '../../../../shared/ui/read-only.tsx';
import { BlockList, type BlockActions } from './block-list.tsx';
import { BlockPalette } from './block-palette.tsx';
import { BlockSettings } from './block-settings.tsx';
import { DocumentSettings } from './document-settings.tsx';
import { useHistory } from './use-history.ts';

/** Where the palette puts a new block: after the selected one (columns never inside a column), else at the end. */
function placeFor(doc: BlockDocument, selected: string | null, type: BlockType): { ref: ListRef; index?: number } {
  const place = selected ? locate(doc, selected) : null;
  if (!place) return { ref: TOP };
  if (place.ref.parent !== null && type === 'columns') {
    const parent = locate(doc, place.ref.parent);
    return { ref: TOP, index: (parent?.index ?? doc.blocks.length - 1) + 1 };
  }
  return { ref: place.ref, index: place.index + 1 };
}

/**
 * The block editor: a palette, the blocks (drag, or move with buttons), the selected block's settings, the email's
 * settings, and undo/redo of every change (buttons, Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z).
 */
export function BlockEditor({
  value,
  onChange,
  errorPath,
  readOnly = false,
}: {
  value: BlockDocument;
  onChange: (doc: BlockDocument) => void;
  /** The API's name of this document in errors: `content`, `translations.de.content`. */
  errorPath: string;
  readOnly?: boolean;
}) {
  const history = useHistory(value, onChange);
  const [selected, setSelected] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  /** After a change that moves the DOM, puts the keyboard back on the block's button (or its summary). */
  const focusLater = (id: string, action: string) =>
    requestAnimationFrame(() => {
      const row = root.current?.querySelector(`[data-block-id="${id}"] > .block-row`);
      const button = row?.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
      (button && !button.disabled ? button : row?.querySelector<HTMLButtonElement>('[data-action="select"]'))?.focus();
    });
  const add = (ref: ListRef, type: BlockType, index?: number) => {
    const id = freshId(value);
    history.change(insertBlock(value, ref, newBlock(type, id), index));
    setSelected(id);
    focusLater(id, 'select');
  };
  const actions: BlockActions = {
    select: setSelected,
    move(id, by) {
      const place = locate(value, id);
      if (!place) return;
      const to = place.index + by;
      if (to < 0 || to >= listOf(value, place.ref).length) return;
      history.change(editList(value, place.ref, (list) => moveItem(list, place.index, to)));
      focusLater(id, by < 0 ? 'up' : 'down');
    },
    reorder: (ref, from, to) => history.change(editList(value, ref, (list) => moveItem(list, from, to))),
    duplicate(id) {
      const copy = duplicateBlock(value, id);
      if (!copy.id) return;
      history.change(copy.doc);
      setSelected(copy.id);
      focusLater(copy.id, 'select');
    },
    remove(id) {
      const place = locate(value, id);
      const siblings = place ? listOf(value, place.ref) : [];
      const next = place ? (siblings[place.index + 1] ?? siblings[place.index - 1]) : undefined;
      history.change(removeBlock(value, id));
      if (selected === id) setSelected(null);
      if (next?.id) focusLater(next.id, 'select');
    },
    add: (ref, type) => add(ref, type),
  };
  // Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z (or Ctrl+Y) redoes: anywhere in the editor, its text fields included.
  const keys = (event: KeyboardEvent) => {
    const key = event.key.toLowerCase();
    if (readOnly || !(event.ctrlKey || event.metaKey) || (key !== 'z' && key !== 'y')) return;
    event.preventDefault();
    if (key === 'y' || event.shiftKey) history.redo();
    else history.undo();
  };
  const block = selected ? findBlock(value, selected) : null;
  const blockPath = block ? `${errorPath}.${pathOf(value, block.id!)}` : errorPath;
  return (
    <div className="block-editor" ref={root} onKeyDown={keys}>
      {!readOnly && (
        <div className="block-toolbar">
          <BlockPalette
            onAdd={(type) => {
              const place = placeFor(value, selected, type);
              add(place.ref, type, place.index);
            }}
          />
          <div className="undo-redo" role="group" aria-label="History">
            <button
              type="button"
              className="secondary small"
              aria-label="Undo"
              title="Undo (Ctrl+Z, ⌘Z)"
              disabled={!history.canUndo}
              onClick={history.undo}
            >
              <Undo2 className="icon" aria-hidden="true" />
              Undo
            </button>
            <button
              type="button"
              className="secondary small"
              aria-label="Redo"
              title="Redo (Shift+Ctrl+Z, ⇧⌘Z)"
              disabled={!history.canRedo}
              onClick={history.redo}
            >
              <Redo2 className="icon" aria-hidden="true" />
              Redo
            </button>
          </div>
        </div>
      )}
      <div className="block-editor-body">
        <div className="block-canvas">
          <BlockList
            doc={value}
            listRef={TOP}
            label="Blocks"
            selected={selected}
            readOnly={readOnly}
            errorPath={errorPath}
            actions={actions}
          />
        </div>
        <ReadOnly when={readOnly}>
          <div className="block-side">
            <BlockSettings
              block={block}
              path={blockPath}
              onChange={(next, field) =>
                history.change(
                  updateBlock(value, next.id!, () => next),
                  `${next.id}.${field}`,
                )
              }
            />
            <DocumentSettings
              value={value.settings}
              path={`${errorPath}.settings`}
              onChange={(settings, field) => history.change({ ...value, settings }, `settings.${field}`)}
            />
          </div>
        </ReadOnly>
      </div>
    </div>
  );
}

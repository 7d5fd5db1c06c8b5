import { useState } from 'react';

/** How many earlier states undo can go back to. */
const DEPTH = 100;
/** Changes to the same field closer than this make one step of the history (typing a word is one undo). */
const MERGE_MS = 1000;

interface Stacks<T> {
  past: T[];
  future: T[];
  last: { key: string; at: number } | null;
}

export interface History<T> {
  /** Makes `next` the value; changes with the same `mergeKey` in quick succession are undone together. */
  change(next: T, mergeKey?: string): void;
  undo(): void;
  redo(): void;
  canUndo: boolean;
  canRedo: boolean;
}

/**
 * Undo and redo over a value its owner keeps (`value`, `onChange`): the history holds the states before and after
 * it, so the owner's value stays the one truth.
 */
export function useHistory<T>(value: T, onChange: (next: T) => void): History<T> {
  const [stacks, setStacks] = useState<Stacks<T>>({ past: [], future: [], last: null });
  return {
    change(next, mergeKey) {
      const now = Date.now();
      const merge = mergeKey !== undefined && stacks.last?.key === mergeKey && now - stacks.last.at < MERGE_MS;
      setStacks({
        past: merge ? stacks.past : [...stacks.past, value].slice(-DEPTH),
        future: [],
        last: mergeKey === undefined ? null : { key: mergeKey, at: now },
      });
      onChange(next);
    },
    undo() {
      const previous = stacks.past.at(-1);
      if (previous === undefined) return;
      setStacks({ past: stacks.past.slice(0, -1), future: [value, ...stacks.future], last: null });
      onChange(previous);
    },
    redo() {
      const [next, ...rest] = stacks.future;
      if (next === undefined) return;
      setStacks({ past: [...stacks.past, value], future: rest, last: null });
      onChange(next);
    },
    canUndo: stacks.past.length > 0,
    canRedo: stacks.future.length > 0,
  };
}

import { useCallback, useState } from 'react';

/** Cursor paging (CONTRACT §3): the cursors of the pages before, so "Previous" goes back. */
export function useCursor(): { cursor: string | undefined; page: number; next: (cursor: string) => void; previous: () => void; reset: () => void } {
  const [stack, setStack] = useState<string[]>([]);
  const next = useCallback((cursor: string) => setStack((s) => [...s, cursor]), []);
  const previous = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const reset = useCallback(() => setStack([]), []);
  return { cursor: stack[stack.length - 1], page: stack.length + 1, next, previous, reset };
}

interface PagerProps {
  page: number;
  shown: number;
  total: number;
  nextCursor: string | null;
  onNext: (cursor: string) => void;
  onPrevious: () => void;
  noun: string;
}

export function Pager({ page, shown, total, nextCursor, onNext, onPrevious, noun }: PagerProps) {
  return (
    <nav className="pager" aria-label={`${noun} pages`}>
      <span>{total} {noun}{total === 1 ? '' : 's'} · page {page}{shown ? '' : ' (empty)'}</span>
      <button type="button" className="secondary" disabled={page <= 1} onClick={onPrevious}>Previous</button>
      <button type="button" className="secondary" disabled={!nextCursor} onClick={() => nextCursor && onNext(nextCursor)}>Next</button>
    </nav>
  );
}

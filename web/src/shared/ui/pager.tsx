import type { Paging } from '../hooks/use-address-list.ts';

interface PagerProps {
  paging: Paging;
  shown: number;
  total: number;
  nextCursor: string | null;
  noun: string;
}

/** "12 contacts · page 2" with Previous and Next. */
export function Pager({ paging, shown, total, nextCursor, noun }: PagerProps) {
  return (
    <nav className="pager" aria-label={`${noun} pages`}>
      <span>
        {total} {noun}
        {total === 1 ? '' : 's'} · page {paging.page}
        {shown ? '' : ' (empty)'}
      </span>
      <button type="button" className="secondary" disabled={paging.page <= 1} onClick={paging.previous}>
        Previous
      </button>
      <button
        type="button"
        className="secondary"
        disabled={!nextCursor}
        onClick={() => nextCursor && paging.next(nextCursor)}
      >
        Next
      </button>
    </nav>
  );
}

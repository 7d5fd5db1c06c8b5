import type { ReactNode } from 'react';
import type { Page } from '../api/client.ts';
import type { AsyncState } from '../lib/use-async.ts';
import { AsyncView } from './async-state.tsx';
import { DataTable, type Column } from './data-table.tsx';
import { Pager, type useCursor } from './pager.tsx';

interface PagedTableProps<T> {
  state: AsyncState<Page<T>>;
  paging: ReturnType<typeof useCursor>;
  /** Singular, for "12 contacts · page 2". */
  noun: string;
  caption: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: ReactNode;
}

/** One page of a list endpoint as a table with cursor paging, and its loading, error and empty states. */
export function PagedTable<T>({ state, paging, noun, caption, columns, rowKey, empty }: PagedTableProps<T>) {
  return (
    <AsyncView state={state} isEmpty={(p) => p.items.length === 0} empty={empty}>
      {(page) => (
        <>
          <DataTable caption={caption} rows={page.items} rowKey={rowKey} columns={columns} />
          <Pager noun={noun} page={paging.page} shown={page.items.length} total={page.total} nextCursor={page.nextCursor} onNext={paging.next} onPrevious={paging.previous} />
        </>
      )}
    </AsyncView>
  );
}

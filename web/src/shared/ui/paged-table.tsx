import type { ReactNode } from 'react';
import type { Page } from '../api/client.ts';
import type { Paging } from '../hooks/use-address-list.ts';
import { AsyncView, type QueryState } from './async-state.tsx';
import { DataTable, type Column } from './data-table.tsx';
import { Pager } from './pager.tsx';

interface PagedTableProps<T> {
  state: QueryState<Page<T>>;
  paging: Paging;
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
          <Pager
            noun={noun}
            paging={paging}
            shown={page.items.length}
            total={page.total}
            nextCursor={page.nextCursor}
          />
        </>
      )}
    </AsyncView>
  );
}

// A list page keeps its filters, its search and its cursors in the address (`?status=SENT&cursor=…&cursor=…`),
// so a reload or a shared link shows the same page, and back and forward step through what the user did.
import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { navigate, useSearch } from '../router.tsx';
import {
  cursorsOf,
  popCursor,
  pushCursor,
  readFilters,
  setFilterIn,
  type FilterSpec,
  type FilterValues,
} from './address-query.ts';
import { useDebounced } from './use-debounced.ts';

/** Cursor paging over the cursors in the address. */
export interface Paging {
  /** Where the page shown starts (undefined: the first page). */
  cursor: string | undefined;
  /** 1 for the first page. */
  page: number;
  next: (cursor: string) => void;
  previous: () => void;
}

export interface AddressList<S extends FilterSpec> {
  filters: FilterValues<S>;
  /** Sets one filter ('' removes it) and goes back to the first page. */
  setFilter: (name: keyof S & string, value: string, options?: { replace?: boolean }) => void;
  paging: Paging;
}

/** Changes the query of the current address: a new history entry unless `replace`; the scroll stays. */
function changeQuery(change: (params: URLSearchParams) => void, replace = false): void {
  // The address as it is now, not as the page last rendered it: two changes in a row both land.
  const params = new URLSearchParams(window.location.search);
  change(params);
  const query = params.toString();
  navigate(`${window.location.pathname}${query ? `?${query}` : ''}`, { replace, keepScroll: true });
}

const NO_FILTERS: FilterSpec = {};

/** The filters and the page of a list, read from and written to the address. `spec` must not change. */
export function useAddressList<S extends FilterSpec = Record<never, never>>(spec: S = NO_FILTERS as S): AddressList<S> {
  const search = useSearch();
  return useMemo(() => {
    const params = new URLSearchParams(search);
    const cursors = cursorsOf(params);
    return {
      filters: readFilters(spec, params),
      setFilter: (name, value, options) => changeQuery((p) => setFilterIn(p, name, value), options?.replace),
      paging: {
        cursor: cursors.at(-1),
        page: cursors.length + 1,
        next: (cursor) => changeQuery((p) => pushCursor(p, cursor)),
        previous: () => changeQuery(popCursor),
      },
    };
  }, [search, spec]);
}

/**
 * A search box over a text filter in the address: the box shows what is typed at once, the address (and so
 * the list) follows once typing pauses; a new search adds a history entry, refining it replaces that entry.
 * When the address changes under it (back, forward, a link), the box shows the address's value.
 */
export function useAddressText(
  value: string,
  set: (value: string, options: { replace: boolean }) => void,
  ms = 300,
): [string, (text: string) => void] {
  const [text, setText] = useState(value);
  const [shownValue, setShownValue] = useState(value);
  if (shownValue !== value) {
    setShownValue(value);
    if (value !== text.trim()) setText(value);
  }
  const settled = useDebounced(text, ms).trim();
  // Only a pause in typing writes the address: a value that came from the address is not written back.
  const typed = useEffectEvent((search: string) => {
    if (search !== value) set(search, { replace: value !== '' });
  });
  useEffect(() => {
    typed(settled);
  }, [settled]);
  return [text, setText];
}

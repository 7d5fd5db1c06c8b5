// A list's state in a query string, as pure functions over URLSearchParams (use-address-list.ts keeps the
// address in step with them). Each `cursor` is where one page after the first starts: the last is the page
// shown, the ones before it are where "Previous" goes back to (cursor paging has no way back of its own).

/** What each filter accepts: `null` any text, or its list of values (anything else in the address is ignored). */
export type FilterSpec = Record<string, readonly string[] | null>;

export type FilterValues<S extends FilterSpec> = {
  [K in keyof S]: S[K] extends readonly (infer V)[] ? V | '' : string;
};

const CURSOR = 'cursor';

/** The filters of `spec` in a query: '' for a filter that is absent or holds a value it does not accept. */
export function readFilters<S extends FilterSpec>(spec: S, params: URLSearchParams): FilterValues<S> {
  const values: Record<string, string> = {};
  for (const [name, allowed] of Object.entries(spec)) {
    const value = (params.get(name) ?? '').trim();
    values[name] = allowed === null || allowed.includes(value) ? value : '';
  }
  return values as FilterValues<S>;
}

/** The cursors of the pages after the first, oldest first. */
export const cursorsOf = (params: URLSearchParams): string[] => params.getAll(CURSOR).filter(Boolean);

/** A filter set ('' removes it), back on the first page: the cursors belonged to the old filters. */
export function setFilterIn(params: URLSearchParams, name: string, value: string): void {
  if (value) params.set(name, value);
  else params.delete(name);
  params.delete(CURSOR);
}

/** The next page: its cursor goes on top of the others. */
export function pushCursor(params: URLSearchParams, cursor: string): void {
  params.append(CURSOR, cursor);
}

/** The page before: the last cursor goes. */
export function popCursor(params: URLSearchParams): void {
  const kept = cursorsOf(params).slice(0, -1);
  params.delete(CURSOR);
  for (const cursor of kept) params.append(CURSOR, cursor);
}

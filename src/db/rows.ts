// The rows of a raw `db.execute(sql…)` result: both drivers (node-postgres, PGlite) put them in `rows`.
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

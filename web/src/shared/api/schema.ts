// The API's generated types (`npm run gen:api`), shared with the typed client: one file, sdk/src/schema.d.ts.
export type { components, operations, paths } from '../../../../sdk/src/schema.d.ts';

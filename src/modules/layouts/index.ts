// The front door of the layouts module: other modules import only what is exported here.
export {
  contentProblem,
  defaultLayoutId,
  findLayoutFor,
  layoutSourceOf,
  requireLayout,
  setDefaultLayout,
} from './layouts.service.ts';
export type { LayoutRow } from './layouts.service.ts';

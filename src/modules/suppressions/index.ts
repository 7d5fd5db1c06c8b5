// The front door of the suppressions module: other modules import only what is exported here.
export { addSuppression, findSuppressed } from './suppressions.repo.ts';

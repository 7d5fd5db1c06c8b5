// The front door of the exports module: nothing is used by other modules yet.
export { exportContact } from './exports.service.ts';

// The front door of the suppressions module: other modules import only what is exported here.
export { findSuppressedAddresses, suppressAddress } from './suppressions.service.ts';

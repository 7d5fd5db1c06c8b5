// The front door of the subscribe module: other modules import only what is exported here.
export { requestConfirmation, subscribe } from './subscribe.service.ts';

// The front door of the relay module: other modules and the tests import only what is exported here.
export { MAX_MESSAGE_BYTES, MAX_RECIPIENTS, startSubmissionRelay } from './relay.smtp.ts';
export type { SubmissionRelay } from './relay.smtp.ts';

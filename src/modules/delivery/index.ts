// The front door of the delivery module: other modules import only what is exported here.
export { unsubscribeUrlFor } from './delivery.deliver.ts';
export { SEND_PRIORITY, enqueueDeliveries } from './delivery.jobs.ts';
export { EMAIL_TRANSITIONS, insertAttachments } from './delivery.repo.ts';
export { queueEmails } from './delivery.queue.ts';
export type { NewEmail } from './delivery.repo.ts';
export { findReportedEmail, recordComplaint, recordDelivered, recordReportedBounce, recordReportedDelay } from './delivery.feedback.ts';
export type { FeedbackSource } from './delivery.feedback.ts';

// The front door of the delivery module: other modules import only what is exported here.
export { unsubscribeUrlFor } from './delivery.message.ts';
export { EMAIL_TRANSITIONS, insertAttachments } from './delivery.repo.ts';
export { queueCampaignEmails, queueEmails, SEND_PRIORITY } from './delivery.queue.ts';
export { storeContent } from './delivery.content.ts';
export { deliveryPoller } from './delivery.poller.ts';
export { deliveryMetrics } from './delivery.metrics.ts';
export type { NewEmail } from './delivery.repo.ts';
export { findReportedEmail, recordComplaint, recordDelivered, recordReportedBounce, recordReportedDelay } from './delivery.feedback.ts';
export type { FeedbackSource, ReportedEmailRef } from './delivery.feedback.ts';

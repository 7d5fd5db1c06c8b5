// The front door of the delivery module: other modules import only what is exported here.
export { unsubscribeUrlFor } from './delivery.message.ts';
export { ACTIVITY_SQL, EMAIL_ACTIVITIES, HUMAN_ACTIVITY_SQL } from './delivery.activity.ts';
export type { EmailActivity } from './delivery.activity.ts';
export { cancelCampaignEmails, countCampaignEmails, countCampaignLinks, countVariantEmails, hasUntriedCampaignEmails, holdCampaignEmails, releaseCampaignEmails } from './delivery.campaigns.ts';
export type { CampaignCounts } from './delivery.campaigns.ts';
export { queueMessages, SEND_PRIORITY } from './delivery.queue.ts';
export type { OutgoingMessage, QueuedEmail, QueueMessagesOptions } from './delivery.queue.ts';
export { storeContent } from './delivery.content.ts';
export { deliveryPoller } from './delivery.jobs.ts';
export { deliveryMetrics } from './delivery.metrics.ts';
export { findReportedEmail, recordComplaint, recordDelivered, recordReportedBounce, recordReportedDelay } from './delivery.feedback.ts';
export type { FeedbackSource, ReportedEmailRef } from './delivery.feedback.ts';
export { findRepliedEmailId } from './delivery.replies.ts';
export { cancelEmail, MAX_SCHEDULE_DAYS, rescheduleEmail, scheduledAtSchema } from './delivery.schedule.ts';
export { getEmail, listEmails } from './delivery.service.ts';
export { getEmailDetail } from './delivery.detail.ts';
export type { EmailDetail } from './delivery.detail.ts';
export type { EmailView } from './delivery.view.ts';

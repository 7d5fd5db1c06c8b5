// The front door of the emails module (the store and every email's lifecycle): other modules import only what is
// exported here.
export { emailMetricsQuery, getEmailMetrics } from './emails.breakdown.ts';
export type { EmailMetrics } from './emails.breakdown.ts';
export { ACTIVITY_SQL, EMAIL_ACTIVITIES, HUMAN_ACTIVITY_SQL } from './emails.activity.ts';
export type { EmailActivity } from './emails.activity.ts';
export {
  cancelCampaignEmails,
  countCampaignEmails,
  countSuppressedCampaignEmails,
  countCampaignLinks,
  countVariantEmails,
  countSendTimeGroups,
  findCampaignWaits,
  hasUntriedCampaignEmails,
  holdCampaignEmails,
  releaseCampaignEmails,
} from './emails.campaigns.ts';
export type { CampaignWait } from './emails.campaigns.ts';
export { countEmailsByStatus, EMAIL_DUE_CHANNEL, queueBacklog } from './emails.claim.ts';
export type { ClaimedEmail } from './emails.claim.ts';
export { contactEmailActivitySql, unsentCampaignEmailsSql } from './emails.conditions.ts';
export type { EmailActivityCondition } from './emails.conditions.ts';
export { contentRoots, storeContent } from './emails.content.ts';
export { getEmailDetail } from './emails.detail.ts';
export type { EmailDetail } from './emails.detail.ts';
export { findSentAt, recordClick, recordLinkClick, recordOpen } from './emails.engagement.ts';
export type { Engagement } from './emails.engagement.ts';
export {
  findReportedEmail,
  recordComplaint,
  recordDelivered,
  recordReportedBounce,
  recordReportedDelay,
} from './emails.feedback.ts';
export type { FeedbackSource, ReportedEmailRef } from './emails.feedback.ts';
export { queueMessages, SEND_PRIORITY } from './emails.intake.ts';
export type { OutgoingMessage, QueuedEmail, QueueMessagesOptions } from './emails.intake.ts';
export { linkBaseFor, unsubscribeUrlFor, viewUrlFor } from './emails.link-urls.ts';
export type { LinkSigning } from './emails.link-urls.ts';
export { linksOfEmail } from './emails.links.ts';
export { findRepliedEmailId } from './emails.replies.ts';
export { cancelEmail, MAX_SCHEDULE_DAYS, rescheduleEmail, scheduledAtSchema } from './emails.schedule.ts';
export { findEmailRow, getEmail, getEmailAttachment, listEmailAttachments, listEmails } from './emails.service.ts';
export type { EmailAttachmentMeta } from './emails.service.ts';
export type { SentItem } from './emails.settle.ts';
export { createEmailStore } from './emails.store.ts';
export type { EmailStore } from './emails.store.ts';
export { ERASED_ADDRESS } from './emails.types.ts';
export type { CampaignCounts, EmailRow, HoldReason } from './emails.types.ts';
export type { EmailView } from './emails.view.ts';
export { emitEmailEvents } from './emails.webhooks.ts';
export { recordEmailStep, setTimelineRecording } from './emails.timeline.ts';
export type { AttemptRecord } from './emails.timeline.ts';

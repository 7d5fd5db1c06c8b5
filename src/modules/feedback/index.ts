// The front door of the feedback module (bounces, complaints and provider notices received after the handoff).
export { startFeedbackReceiver } from './feedback.smtp.ts';
export type { FeedbackReceiver } from './feedback.smtp.ts';

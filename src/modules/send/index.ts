// The front door of the send module: what another HTTP surface needs to send mail as /v1/send does.
export { sendBatch, sendEmail } from './send.service.ts';
export type { SendOptions } from './send.service.ts';
export { batchBody, MAX_BATCH, sendBody, tagSchema } from './send.schemas.ts';
export type { BatchResult, SendBody, SendResult } from './send.schemas.ts';

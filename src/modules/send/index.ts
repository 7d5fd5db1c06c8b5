// The front door of the send module: other modules import only what is exported here.
export { sendEmails } from './send.service.ts';
export { sendBody } from './send.schemas.ts';
export type { SendBody, SendResult } from './send.schemas.ts';

// The front door of the logs module: the request log's flush and reads, its erasure of deleted contacts' addresses,
// retention.
export { flushRequestLog } from './logs.capture.ts';
export { deleteExpiredLogs, eraseContactsFromLog, ERASED, getLog, listLogs } from './logs.service.ts';
export type { LogEntryView } from './logs.service.ts';

// The front door of the logs module: the request log's flush, its erasure of deleted contacts' addresses, retention.
export { flushRequestLog } from './logs.capture.ts';
export { deleteExpiredLogs, eraseContactsFromLog, ERASED } from './logs.service.ts';

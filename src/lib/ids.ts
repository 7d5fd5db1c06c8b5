import { v7 } from 'uuid';
import { randomUUID } from 'node:crypto';

/** New time-ordered ids (UUIDv7): they sort by creation time and index well. */
export function newId(): string {
  return v7();
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when a path id can be a stored id; anything else is simply not found (never a 500 from the database). */
export function isId(value: string): boolean {
  return uuidPattern.test(value);
}

/** A request id (`req_` and 32 hex digits), in the X-Request-Id header and every error body. */
export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}

// A contact's timeline: its events and its emails in one list, each send once.
import type { Email, EventItem } from '../../shared/api/types.ts';

export type HistoryEntry = { at: string; key: string } & (
  | { kind: 'event'; event: EventItem; email?: Email | undefined }
  | { kind: 'email'; email: Email }
);

/** What a person did with an email: kept beside the email's own entry, which shows only where it stands. */
const ENGAGEMENT = new Set(['email.opened', 'email.clicked']);

const emailIdOf = (event: EventItem): string | null =>
  typeof event.data.emailId === 'string' ? event.data.emailId : null;

/**
 * The events and emails, newest first. An email's own events (queued, sent, delivered…) are left out when the email is
 * listed, as its entry and status say the same; its opens and clicks stay, linked to it.
 */
export function mergeHistory(events: EventItem[], emails: Email[]): HistoryEntry[] {
  const listed = new Map(emails.map((email) => [email.id, email]));
  const entries: HistoryEntry[] = emails.map((email) => ({
    kind: 'email',
    email,
    at: email.createdAt,
    key: `m${email.id}`,
  }));
  for (const event of events) {
    const email = listed.get(emailIdOf(event) ?? '');
    if (email && event.name.startsWith('email.') && !ENGAGEMENT.has(event.name)) continue;
    entries.push({ kind: 'event', event, email, at: event.createdAt, key: `e${event.id}` });
  }
  return entries.sort((a, b) => b.at.localeCompare(a.at));
}

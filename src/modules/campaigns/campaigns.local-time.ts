// A campaign sent at each recipient's local time (`sendAt: {localTime, date}`): every email's due time is the
// wall-clock time in its contact's `data.timezone` (else the project's), written into the email as it is queued,
// so the delivery queue itself releases each one at its turn; there is no timer per time zone. The campaign is
// SCHEDULED from the send until its last email's turn, then SENDING, then SENT as usual.
import { validationError } from '../../lib/errors.ts';
import { EARLIEST_ZONE, isTimeZone, LATEST_ZONE, zonedInstant } from '../../lib/time-zone.ts';
import type * as repo from './campaigns.repo.ts';
import { DAY_MS } from '../../lib/durations.ts';

export interface SendAt {
  localTime: string;
  date: string;
}

/** The last instant scheduledFor accepts (the years 1–9999): no time zone's turn may come later. */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A `sendAt` checked against the clock: its day may not be over everywhere already (in the last time zone,
 * UTC−12), and its last turn must be within the years scheduledFor takes. Answers when the first time zone's
 * turn comes (UTC+14; now when that is past): the audience is resolved then.
 */
export function checkSendAt(sendAt: SendAt, now = new Date()): { firstTurn: Date } {
  const dayEnd = zonedInstant(sendAt.date, '00:00', LATEST_ZONE).getTime() + DAY_MS;
  if (dayEnd <= now.getTime())
    throw validationError(
      'sendAt.date',
      'this day is over in every time zone: pick today or a later date',
      'past_date',
    );
  if (zonedInstant(sendAt.date, sendAt.localTime, LATEST_ZONE).getTime() > LAST_INSTANT) {
    throw validationError(
      'sendAt.date',
      "is too far ahead: the last time zone's turn must be within the year 9999",
      'too_late',
    );
  }
  const first = zonedInstant(sendAt.date, sendAt.localTime, EARLIEST_ZONE);
  return { firstTurn: first > now ? first : now };
}

/** Whether the campaign is a local-time send whose audience has begun to be queued (it stays SCHEDULED meanwhile). */
export function isLocalSendUnderway(campaign: Pick<repo.CampaignRow, 'status' | 'localTime' | 'sentAt'>): boolean {
  return campaign.status === 'SCHEDULED' && campaign.localTime !== null && campaign.sentAt !== null;
}

/**
 * Whether a (paused) local-time send still has time zones to come: its audience not all queued, or its last turn
 * ahead. Resumed, such a send waits again as SCHEDULED; otherwise it goes on as SENDING.
 */
export function localTurnsAhead(
  campaign: Pick<repo.CampaignRow, 'localTime' | 'sentAt' | 'fanoutDone' | 'localEndsAt'>,
  now = new Date(),
): boolean {
  if (campaign.localTime === null || campaign.sentAt === null) return false;
  return !campaign.fanoutDone || (campaign.localEndsAt !== null && campaign.localEndsAt > now);
}

/**
 * Each recipient's due time for a local-time send, one computation per time zone: the contact's `data.timezone`,
 * or the project's zone when it has none (`unknown` when it names no time zone).
 */
export function localDueTimes(campaign: Pick<repo.CampaignRow, 'localTime' | 'localDate'>, projectZone: string) {
  const byZone = new Map<string, Date>();
  const dueIn = (zone: string) => {
    let due = byZone.get(zone);
    if (!due) byZone.set(zone, (due = zonedInstant(campaign.localDate!, campaign.localTime!, zone)));
    return due;
  };
  return (data: Record<string, unknown> | null): { dueAt: Date; unknown: boolean } => {
    const named = data?.timezone;
    if (named === undefined || named === null || named === '') return { dueAt: dueIn(projectZone), unknown: false };
    if (typeof named === 'string' && (byZone.has(named) || isTimeZone(named)))
      return { dueAt: dueIn(named), unknown: false };
    return { dueAt: dueIn(projectZone), unknown: true };
  };
}

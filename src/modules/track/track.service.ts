import type { JsonObject } from '../../db/schema/index.ts';
import { iso } from '../../lib/http.ts';
import type { KeyType } from '../../lib/keys.ts';
import { normalizeEmail } from '../contacts/index.ts';
import type { TrackBatcher } from './track.batcher.ts';

function isWrapped(value: unknown): value is { value: unknown; persistent: boolean } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && 'value' in value && typeof (value as { persistent?: unknown }).persistent === 'boolean';
}

/**
 * Plunk's data convention: every value goes on the event (a `{value, persistent}` wrapper as its value);
 * every value but a `persistent: false` one is also merged into the contact.
 */
export function splitTrackData(data: JsonObject): { event: JsonObject; contact: JsonObject } {
  const event: JsonObject = {};
  const contact: JsonObject = {};
  for (const [key, raw] of Object.entries(data)) {
    const value = isWrapped(raw) ? raw.value : raw;
    event[key] = value;
    if (!isWrapped(raw) || raw.persistent) contact[key] = value;
  }
  return { event, contact };
}

/**
 * POST /v1/track: upserts the contact and records the event in one statement (one round trip, one
 * transaction), shared with concurrent calls by `batcher`. A public key sets `subscribed` only on a
 * contact it creates: it can never re-subscribe (or unsubscribe) someone, since anyone can read it.
 */
export async function trackEvent(opts: {
  batcher: TrackBatcher;
  projectId: string;
  keyType: KeyType;
  email: string;
  event: string;
  subscribed?: boolean | undefined;
  data?: JsonObject | null | undefined;
  /** The contact's language (canonical BCP 47); null clears it, omitted keeps it. */
  locale?: string | null | undefined;
}): Promise<{ contact: string; event: string; timestamp: string }> {
  const { event, contact } = splitTrackData(opts.data ?? {});
  const result = await opts.batcher.upsert(opts.projectId, {
    email: normalizeEmail(opts.email),
    subscribed: opts.keyType === 'secret' ? opts.subscribed : undefined,
    defaultSubscribed: opts.subscribed ?? true,
    patch: contact,
    locale: opts.locale,
    event: { name: opts.event, data: event },
  });
  return { contact: result.contact.id, event: result.eventId!, timestamp: iso(result.at) };
}

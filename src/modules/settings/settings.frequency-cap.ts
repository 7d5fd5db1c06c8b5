// The frequency cap of marketing mail as the API writes it (`{max, per: "7d"}`) and as it is stored (`{max, days}`).
import type { FrequencyCap } from '../../db/schema/settings.ts';
import { DAY_MS, durationSeconds } from '../../lib/durations.ts';

/** The longest window a cap counts over, in days. */
export const MAX_FREQUENCY_CAP_DAYS = 90;
/** The largest `max` a cap takes. */
export const MAX_FREQUENCY_CAP_EMAILS = 1000;

/** The cap as the API shows it. */
export interface FrequencyCapView {
  max: number;
  per: string;
}

/** Days of a window written "<n>d", 1 to 90; null for anything else. */
export function frequencyCapDays(per: string): number | null {
  if (!/^[0-9]+d$/.test(per)) return null;
  const seconds = durationSeconds(per);
  const days = seconds === null ? 0 : (seconds * 1000) / DAY_MS;
  return days >= 1 && days <= MAX_FREQUENCY_CAP_DAYS ? days : null;
}

export function toFrequencyCapView(stored: FrequencyCap | null): FrequencyCapView | null {
  return stored ? { max: stored.max, per: `${stored.days}d` } : null;
}

export function toStoredFrequencyCap(view: FrequencyCapView | null): FrequencyCap | null {
  return view ? { max: view.max, days: frequencyCapDays(view.per)! } : null;
}

// A key's expiry is chosen as a day, in the browser's time zone: the key lasts to the end of that day, so one
// chosen to expire today still works until tonight (midnight UTC of today is already past in half the world).

const pad = (n: number) => String(n).padStart(2, '0');

/** The day (YYYY-MM-DD) of an instant in the browser's time zone. */
export function localDay(instant: Date): string {
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
}

/** The last millisecond of a day (YYYY-MM-DD) in the browser's time zone, as an ISO instant. */
export function endOfLocalDay(day: string): string {
  // A date-time without an offset is read in local time.
  return new Date(`${day}T23:59:59.999`).toISOString();
}

// Settings a job may carry that pg-boss 10 has no column for (its heartbeat, the ceiling of its back-off, its
// longest run when a heartbeat rewrites the row's): kept in the job's data under one key, taken off before the
// handler sees the payload.
const KEY = '__herald_job';

/** pg-boss's own default for the longest run of a job. */
const DEFAULT_EXPIRE_SECONDS = 15 * 60;

export interface JobSettings {
  retryDelayMax?: number;
  heartbeatSeconds?: number;
  expireInSeconds?: number;
}

export type RunSettings = JobSettings & { expireInSeconds: number };

/** The data to store: the payload, plus the job's own settings when it has any. */
export function withSettings(payload: object, settings: JobSettings): object {
  const own = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
  return Object.keys(own).length ? { ...payload, [KEY]: own } : payload;
}

/** The payload as enqueued and the settings a run obeys (the job's own over the queue's). */
export function jobSettings(data: unknown, defaults: JobSettings): { payload: unknown; settings: RunSettings } {
  const { [KEY]: own, ...payload } = (data ?? {}) as Record<string, unknown>;
  const settings = { ...defaults, ...(own as JobSettings | undefined) };
  return { payload, settings: { ...settings, expireInSeconds: settings.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS } };
}

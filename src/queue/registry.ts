import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';

/**
 * What jobs and pollers are handed: the process's context (AppContext), of which the queue itself needs only
 * the configuration and the database; each job names the context it wants (`ctx: AppContext`).
 */
export interface WorkContext {
  config: Readonly<Config>;
  database: Database;
}

export interface JobMeta {
  id: string;
  retryCount: number;
  retryLimit: number;
}

/** A queue's policy and its jobs' defaults (a job enqueued with its own values overrides them). */
export interface QueueSettings {
  /** pg-boss queue policy: `singleton` runs one job at a time, `short` keeps one queued, `stately` one of each. */
  policy?: 'standard' | 'singleton' | 'stately' | 'short';
  retryLimit?: number;
  /** Seconds before the first retry; with `retryBackoff` it doubles (with jitter) on each retry. */
  retryDelay?: number;
  retryBackoff?: boolean;
  /** Longest wait before a retry, in seconds (caps the back-off). */
  retryDelayMax?: number;
  /** Longest run of one job; past it the job fails (and is retried). Default 15 minutes. */
  expireInSeconds?: number;
  /** How long a job may wait to start before it is dropped. Default 14 days. */
  retentionSeconds?: number;
  /** A running job proves it is alive this often; one silent for this long (its worker died) is retried. */
  heartbeatSeconds?: number;
}

/** A kind of background work: its queue name, payload schema, retry policy and handler. */
export interface JobDefinition<P = unknown, C extends WorkContext = WorkContext> {
  name: string;
  schema: z.ZodType<P>;
  queue?: QueueSettings;
  /** Jobs fetched per poll (each settled on its own); a function of the config when it depends on it. */
  batchSize?: number | ((config: Readonly<Config>) => number);
  /** Fetch loops per process, each with its own batch; default 1. */
  concurrency?: number;
  /** A cron expression: the worker runs this job on that schedule (one run cluster-wide). */
  cron?: string;
  handler(payload: P, ctx: C, job: JobMeta): Promise<void>;
}

/** Declares a job; the identity function gives the payload type to the handler. */
export function defineJob<P, C extends WorkContext>(definition: JobDefinition<P, C>): JobDefinition<P, C> {
  return definition;
}

/** A job of any payload type, for lists of heterogeneous jobs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJob = JobDefinition<any, any>;

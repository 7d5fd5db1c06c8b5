import type { z } from 'zod';
import type { QueueOptions } from 'pg-boss';
import type { AppContext } from '../context.ts';
import type { Config } from '../config.ts';

export interface JobMeta {
  id: string;
  retryCount: number;
  retryLimit: number;
}

/** A kind of background work: its queue name, payload schema, retry policy and handler. */
export interface JobDefinition<P = unknown> {
  name: string;
  schema: z.ZodType<P>;
  queue?: QueueOptions & { policy?: 'standard' | 'singleton' | 'stately' | 'short' };
  /** Jobs fetched per poll (each settled on its own); a function of the config when it depends on it. */
  batchSize?: number | ((config: Readonly<Config>) => number);
  /** Fetch loops per process (pg-boss localConcurrency), each with its own batch; default 1. */
  concurrency?: number;
  /** A cron expression: the worker runs this job on that schedule (one run cluster-wide). */
  cron?: string;
  handler(payload: P, ctx: AppContext, job: JobMeta): Promise<void>;
}

/** Declares a job; the identity function gives the payload type to the handler. */
export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

/** A job of any payload type, for lists of heterogeneous jobs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJob = JobDefinition<any>;

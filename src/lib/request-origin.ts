import { AsyncLocalStorage } from 'node:async_hooks';

/** Who a change is made by: a signed-in user, a project key, the admin token (or the CLI), or Herald itself. */
export interface Actor {
  type: 'user' | 'key' | 'admin' | 'system';
  id: string | null;
  /** What people read in the audit log: a user's email, a key's name and prefix, "admin token", "cli". */
  label: string;
}

/** Where a change comes from: the actor and the request that carried it (none for jobs and the CLI). */
export interface Origin {
  actor: Actor;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  /** Changes recorded for this request so far (a successful change with none is recorded after it). */
  recorded: number;
}

export const SYSTEM_ACTOR: Actor = Object.freeze({ type: 'system', id: null, label: 'system' });

const storage = new AsyncLocalStorage<Origin>();

/** Runs `fn` with `origin` as the origin of every change it makes (a request, a CLI command, a job). */
export function runWithOrigin<T>(origin: Origin, fn: () => T): T {
  return storage.run(origin, fn);
}

/** The origin of the code running now: the request's or command's, or Herald itself for background work. */
export function currentOrigin(): Origin {
  return storage.getStore() ?? { actor: SYSTEM_ACTOR, ip: null, userAgent: null, requestId: null, recorded: 0 };
}

/** A new origin with nobody known yet (the auth plugin names the actor once it knows it). */
export function newOrigin(
  request: { ip: string | null; userAgent: string | null; requestId: string | null },
  actor: Actor = SYSTEM_ACTOR,
): Origin {
  return { actor, ...request, recorded: 0 };
}

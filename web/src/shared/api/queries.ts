// The dashboard's one data layer: every read of the API is a TanStack Query query, kept in one cache under a key
// that starts with the open project, so one project's answers never show in another. A change made through the
// dashboard invalidates the answers it touched instead of reloading pages by hand.
import {
  QueryClient,
  useQuery,
  useQueryClient,
  type Query,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { createContext, useContext, useMemo } from 'react';
import type { Api } from './client.ts';

/** What the cache holds answers about: the first part of every key of the open project. */
export type Resource =
  | 'audit-log'
  | 'campaigns'
  | 'contact-bulk'
  | 'contact-import'
  | 'contacts'
  | 'domains'
  | 'emails'
  | 'events'
  | 'forms'
  | 'inbound'
  | 'keys'
  | 'logs'
  | 'overview'
  | 'routing'
  | 'segments'
  | 'settings'
  | 'team'
  | 'templates'
  | 'topics'
  | 'transports'
  | 'webhooks'
  | 'workflows';

/**
 * A key inside the open project: `[resource]` covers everything of a resource, `[resource, 'list', query]` one page
 * of its list, `[resource, id, …]` one item and what hangs on it (its stats, its members).
 */
export type ResourceKey = readonly [Resource, ...unknown[]];

/** The dashboard's cache, made once at its root. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // An error shows at once, as the API answered it; a page reads its data when it opens, when something changed
      // it and while it is live, not each time the window regains focus (a form being filled would start over).
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** The open project as its queries read it: the API to call, and what sets its keys apart (its id). */
export interface OpenProject {
  api: Api;
  scope: string;
}

const OpenProjectContext = createContext<OpenProject | null>(null);

/** Given by the session: the project the pages below read (null while none is open). */
export const OpenProjectProvider = OpenProjectContext.Provider;

function useOpenProject(): OpenProject {
  const project = useContext(OpenProjectContext);
  if (!project) throw new Error('no project is open');
  return project;
}

const PROJECT = 'project';
const inProject = (scope: string, key: ResourceKey): QueryKey => [PROJECT, scope, ...key];

/** Whether the cache holds answers of a project other than `scope` (of any project, for null). */
export const holdsOtherProject = (client: QueryClient, scope: string | null): boolean =>
  client
    .getQueryCache()
    .findAll({ queryKey: [PROJECT] })
    .some((query) => query.queryKey[1] !== scope);

export type ProjectQueryOptions<T> = Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryKey' | 'queryFn'>;

/** A read of the open project's API under `key`: cached, shared by every component that asks, refreshed on change. */
export function useProjectQuery<T>(
  key: ResourceKey,
  load: (api: Api) => Promise<T>,
  options: ProjectQueryOptions<T> = {},
): UseQueryResult<T, Error> {
  const { api, scope } = useOpenProject();
  return useQuery({ ...options, queryKey: inProject(scope, key), queryFn: () => load(api) });
}

/**
 * A query's placeholder while its key changes: the answer shown so far, when it was about `item` too (a campaign's
 * stats after its status changed, the next page of a webhook's deliveries); another item's shows nothing of it.
 */
export function keepPreviousOf(item: string) {
  return <T>(previous: T | undefined, query: Query<T, Error, T, QueryKey> | undefined): T | undefined =>
    query?.queryKey.includes(item) ? previous : undefined;
}

/** What a change made through the dashboard does to the open project's cached answers. */
export interface ProjectCache {
  /** Marks the answers under `key` stale: those on the page are read again at once, the others when they show. */
  invalidate(key: ResourceKey): Promise<void>;
  /** Keeps an answer the API gave to a change (the item as it is now), so the page shows it without asking. */
  set<T>(key: ResourceKey, data: T): void;
  /** Drops the answers under `key` (an item that was deleted), so nothing shows them again. */
  forget(key: ResourceKey): void;
}

export function useProjectCache(): ProjectCache {
  const client = useQueryClient();
  const { scope } = useOpenProject();
  return useMemo(
    () => ({
      invalidate: (key) => client.invalidateQueries({ queryKey: inProject(scope, key) }),
      set: (key, data) => {
        client.setQueryData(inProject(scope, key), data);
      },
      forget: (key) => client.removeQueries({ queryKey: inProject(scope, key) }),
    }),
    [client, scope],
  );
}

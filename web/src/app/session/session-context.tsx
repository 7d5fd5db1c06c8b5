import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useEffectEvent,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { getAccount, signOutPerson } from '../../features/account/api.ts';
import { listContacts } from '../../features/contacts/api.ts';
import { listProjects } from '../../features/projects/api.ts';
import { createKey, getSettings, revokeKey, revokeSessionKeyOnLeave } from '../../features/settings/api.ts';
import { Api, ApiError } from '../../shared/api/client.ts';
import { holdsOtherProject, OpenProjectProvider } from '../../shared/api/queries.ts';
import type { Project } from '../../shared/api/types.ts';
import {
  atLeast,
  clearSession,
  loadPersonNote,
  loadSession,
  projectKeyOf,
  projectScopeOf,
  saveSession,
  withoutSessionKeys,
  type Account,
  type AccountProject,
  type AdminSession,
  type Role,
  type Session,
} from './session.ts';

interface SessionValue {
  session: Session | null;
  /** A person's session is being looked up (after a reload): nothing is shown yet. */
  checking: boolean;
  /** The signed-in person: their account, projects and roles, and the CSRF token (null with a key or token). */
  account: Account | null;
  /** The person's role in the open project; null with a key or the admin token, which may do everything. */
  role: Role | null;
  /** The person's open project (its id, name and their role), or null. */
  currentProject: AccountProject | null;
  /** The API of the open project: its secret key, or the person's session (null while no project is open). */
  api: Api | null;
  /** The admin API: the admin token, or the session of an instance admin. */
  adminApi: Api | null;
  /** The person's own API (their account, invitations), without a project. */
  personApi: Api | null;
  /** Why the last session ended without a sign-out (a revoked key), shown on the sign-in page. */
  notice: string | null;
  /** The open project requires two-factor and the person has none: only setting it up is offered. */
  twoFactorRequired: boolean;
  signIn(secret: string): Promise<void>;
  /** Starts (or renews, after a password change) a person's session from what the server answered. */
  signInPerson(account: Account, projectId?: string): void;
  /** Reads the person's account again (new projects, roles, two-factor); the new account. */
  refreshAccount(): Promise<Account>;
  signOut(): Promise<void>;
  openProject(project: Pick<Project, 'id' | 'name'>, key?: string): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The project API of a signed-in page (pages render only once a project is open). */
export function useApi(): Api {
  const { api } = useSession();
  if (!api) throw new Error('no project is open');
  return api;
}

/**
 * Whether the signed-in person's role in the open project is `least` or above: the one check every page makes
 * before offering an action. A key or the admin token may do everything, as the server decides for them.
 */
export function useCan(least: Role): boolean {
  const { session, role } = useSession();
  if (session?.mode !== 'person') return true;
  return role !== null && atLeast(role, least);
}

/** Whether a person is signed in (keys and the admin token cannot manage people or accounts). */
export function useIsPerson(): boolean {
  return useSession().session?.mode === 'person';
}

async function checkProjectKey(key: string): Promise<void> {
  await listContacts(new Api(key), { limit: 1 });
}

/**
 * The admin session's project keys with one for `projectId`: `key` when given, else the one it has, else a new
 * session key.
 */
async function keysWith(current: AdminSession, projectId: string, key?: string): Promise<AdminSession['projectKeys']> {
  if (key) return { ...current.projectKeys, [projectId]: { key, keyId: null } };
  if (current.projectKeys[projectId]) return current.projectKeys;
  const admin = new Api(current.adminToken);
  const created = await createKey(admin, projectId, 'secret', { name: 'Dashboard session', session: true });
  return { ...current.projectKeys, [projectId]: { key: created.key, keyId: created.id } };
}

/** The project a person works in: the one wanted when they are still a member of it, else their first. */
function projectFor(account: Account, wanted: string | null | undefined): string | null {
  if (wanted && account.projects.some((p) => p.id === wanted)) return wanted;
  return account.projects[0]?.id ?? null;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSessionState] = useState<Session | null>(() => loadSession() ?? loadPersonNote());
  const [account, setAccount] = useState<Account | null>(null);
  const [checking, setChecking] = useState(() => session?.mode === 'person');
  const [twoFactorRequired, setTwoFactorRequired] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const queryClient = useQueryClient();

  // The cache holds one project's answers: signing out, or leaving a project for another (or none), empties it.
  const showSession = useCallback(
    (next: Session | null) => {
      if (next === null || holdsOtherProject(queryClient, projectScopeOf(next))) queryClient.clear();
      setSessionState(next);
    },
    [queryClient],
  );

  const setSession = useCallback(
    (next: Session | null) => {
      if (next) saveSession(next);
      else clearSession();
      showSession(next);
    },
    [showSession],
  );

  const expire = useCallback(
    (error: ApiError) => {
      clearSession();
      showSession(null);
      setAccount(null);
      setTwoFactorRequired(false);
      setNotice(`You were signed out: ${error.message}.`);
    },
    [showSession],
  );

  const signInPerson = useCallback(
    (next: Account, projectId?: string) => {
      const wanted =
        projectId ?? (session?.mode === 'person' ? session.projectId : null) ?? loadPersonNote()?.projectId;
      setAccount(next);
      setNotice(null);
      if (next.user.twoFactor) setTwoFactorRequired(false);
      setSession({ mode: 'person', projectId: projectFor(next, wanted) });
    },
    [session, setSession],
  );

  const signedInBefore = useEffectEvent((found: Account) => signInPerson(found));

  useEffect(() => {
    // A person signed in before this page loaded (a reload, another tab, back from single sign-on): the cookie
    // says who, if it is still good. Only on load: later sessions begin with what the server answered.
    if (!checking) return;
    let live = true;
    getAccount(Api.anonymous())
      .then(
        (found) => {
          if (live) signedInBefore(found);
        },
        (error: unknown) => {
          if (!live) return;
          clearSession();
          showSession(null);
          // A session that ended is no news; anything else (the server unreachable) is said.
          if (error instanceof ApiError && error.status === 401) return;
          setNotice(error instanceof Error ? error.message : String(error));
        },
      )
      .finally(() => {
        if (live) setChecking(false);
      });
    return () => {
      live = false;
    };
  }, [checking, showSession]);

  const personApi = useMemo(
    () =>
      session?.mode === 'person' && account
        ? new Api({ csrfToken: account.csrfToken, projectId: null }, { onUnauthorized: expire })
        : null,
    [session?.mode, account, expire],
  );

  const refreshAccount = useCallback(async () => {
    if (!personApi) throw new Error('no person is signed in');
    const next = await getAccount(personApi);
    signInPerson(next);
    return next;
  }, [personApi, signInPerson]);

  const openProjectIn = useCallback(
    async (current: AdminSession, project: Pick<Project, 'id' | 'name'>, key?: string) => {
      const projectKeys = await keysWith(current, project.id, key);
      setSession({ ...current, projectId: project.id, projectName: project.name, projectKeys });
    },
    [setSession],
  );

  const signIn = useCallback(
    async (input: string) => {
      const secret = input.trim();
      if (secret.startsWith('pk_')) {
        throw new ApiError(
          403,
          'FORBIDDEN',
          'Public keys (pk_) only track events. Sign in with a secret key (sk_) or the admin token.',
        );
      }
      if (secret.startsWith('sk_')) {
        await checkProjectKey(secret);
        setNotice(null);
        setSession({ mode: 'project', key: secret });
        return;
      }
      const projects = await listProjects(new Api(secret));
      const first = projects.items.length === 1 ? projects.items[0] : undefined;
      const admin: AdminSession = {
        mode: 'admin',
        adminToken: secret,
        projectId: null,
        projectName: null,
        projectKeys: {},
      };
      setNotice(null);
      setSession(admin);
      if (first) await openProjectIn(admin, first);
    },
    [setSession, openProjectIn],
  );

  const openProject = useCallback(
    async (project: Pick<Project, 'id' | 'name'>, key?: string) => {
      if (session?.mode === 'person' && account) {
        // A project made a moment ago (by an instance admin) is not in the account read before it.
        const known = account.projects.some((p) => p.id === project.id) ? account : await refreshAccount();
        if (!known.projects.some((p) => p.id === project.id))
          throw new Error(`You are not a member of ${project.name}`);
        setTwoFactorRequired(false);
        setSession({ mode: 'person', projectId: project.id });
        return;
      }
      if (session?.mode !== 'admin') throw new Error('only an admin switches projects');
      await openProjectIn(session, project, key);
    },
    [session, account, refreshAccount, setSession, openProjectIn],
  );

  useEffect(() => {
    if (session?.mode !== 'admin') return undefined;
    // Leaving the page in any way (closing the tab, reloading, navigating away) revokes the keys this session
    // made; the admin token stays in this tab's storage, so a reload or a return makes a new key.
    const leave = () => {
      for (const entry of Object.values(session.projectKeys)) if (entry.keyId) revokeSessionKeyOnLeave(entry.key);
      saveSession(withoutSessionKeys(session));
    };
    const back = (event: PageTransitionEvent) => {
      if (event.persisted) showSession(loadSession());
    };
    window.addEventListener('pagehide', leave);
    window.addEventListener('pageshow', back);
    return () => {
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('pageshow', back);
    };
  }, [session, showSession]);

  useEffect(() => {
    // An admin session back from a reload has its project but no key: make a new session key for it.
    if (session?.mode !== 'admin' || !session.projectId || session.projectKeys[session.projectId]) return;
    keysWith(session, session.projectId).then(
      (projectKeys) => setSession({ ...session, projectKeys }),
      (error: unknown) => {
        if (error instanceof ApiError) expire(error);
      },
    );
  }, [session, setSession, expire]);

  const signOut = useCallback(async () => {
    if (session?.mode === 'admin') {
      const admin = new Api(session.adminToken);
      // The keys this session made are revoked; a project's own key (from creating it) is the user's to keep.
      await Promise.allSettled(
        Object.entries(session.projectKeys)
          .filter(([, entry]) => entry.keyId)
          .map(([projectId, entry]) => revokeKey(admin, projectId, entry.keyId!)),
      );
    }
    // A session that ended already needs no ending: the page forgets it either way.
    if (session?.mode === 'person' && account) {
      await signOutPerson(new Api({ csrfToken: account.csrfToken, projectId: null })).catch(() => undefined);
    }
    setNotice(null);
    setAccount(null);
    setTwoFactorRequired(false);
    setSession(null);
  }, [session, account, setSession]);

  const apis = useMemo(() => {
    if (!session) return { api: null, adminApi: null };
    if (session.mode === 'person') {
      if (!account) return { api: null, adminApi: null };
      const handlers = { onUnauthorized: expire, onTwoFactorRequired: () => setTwoFactorRequired(true) };
      const { projectId } = session;
      return {
        api: projectId ? new Api({ csrfToken: account.csrfToken, projectId }, handlers) : null,
        adminApi: account.user.isAdmin ? personApi : null,
      };
    }
    const key = projectKeyOf(session);
    return {
      api: key ? new Api(key, expire) : null,
      adminApi: session.mode === 'admin' ? new Api(session.adminToken, expire) : null,
    };
  }, [session, account, personApi, expire]);

  const withoutTwoFactor = session?.mode === 'person' && account !== null && !account.user.twoFactor;
  useEffect(() => {
    // A project may require two-factor of its members: one read of it tells at once, whichever page opens first
    // (the profile makes no call to the project).
    if (apis.api && withoutTwoFactor) getSettings(apis.api).catch(() => undefined);
  }, [apis.api, withoutTwoFactor]);

  const scope = projectScopeOf(session);
  const openProjectData = useMemo(() => (apis.api && scope ? { api: apis.api, scope } : null), [apis.api, scope]);

  const value = useMemo<SessionValue>(() => {
    const project = session?.mode === 'person' ? account?.projects.find((p) => p.id === session.projectId) : undefined;
    return {
      session,
      checking,
      account: session?.mode === 'person' ? account : null,
      role: session?.mode === 'person' ? (project?.role ?? 'viewer') : null,
      currentProject: project ?? null,
      ...apis,
      personApi,
      notice,
      twoFactorRequired,
      signIn,
      signInPerson,
      refreshAccount,
      signOut,
      openProject,
    };
  }, [
    session,
    checking,
    account,
    apis,
    personApi,
    notice,
    twoFactorRequired,
    signIn,
    signInPerson,
    refreshAccount,
    signOut,
    openProject,
  ]);

  return (
    <SessionContext.Provider value={value}>
      <OpenProjectProvider value={openProjectData}>{children}</OpenProjectProvider>
    </SessionContext.Provider>
  );
}

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { listContacts } from '../../features/contacts/api.ts';
import { listProjects } from '../../features/projects/api.ts';
import { createKey, revokeKey, revokeSessionKeyOnLeave } from '../../features/settings/api.ts';
import { Api, ApiError } from '../../shared/api/client.ts';
import type { Project } from '../../shared/api/types.ts';
import { clearSession, loadSession, projectKeyOf, saveSession, withoutSessionKeys, type AdminSession, type Session } from './session.ts';

interface SessionValue {
  session: Session | null;
  /** The API with the current project's secret key (null while an admin has no project open). */
  api: Api | null;
  /** The admin API, when signed in with the admin token. */
  adminApi: Api | null;
  /** Why the last session ended without a sign-out (a revoked key), shown on the sign-in page. */
  notice: string | null;
  signIn(secret: string): Promise<void>;
  signOut(): Promise<void>;
  openProject(project: Pick<Project, 'id' | 'name'>, key?: string): Promise<void>;
  /** Grows when the admin creates or changes a project: lists of projects reload on it. */
  projectsVersion: number;
  projectsChanged(): void;
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

async function checkProjectKey(key: string): Promise<void> {
  await listContacts(new Api(key), { limit: 1 });
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSessionState] = useState<Session | null>(() => loadSession());
  const [notice, setNotice] = useState<string | null>(null);
  const [projectsVersion, setProjectsVersion] = useState(0);
  const projectsChanged = useCallback(() => setProjectsVersion((v) => v + 1), []);

  const setSession = useCallback((next: Session | null) => {
    if (next) saveSession(next);
    else clearSession();
    setSessionState(next);
  }, []);

  const expire = useCallback((error: ApiError) => {
    clearSession();
    setSessionState(null);
    setNotice(`You were signed out: ${error.message}.`);
  }, []);

  const openProjectIn = useCallback(async (current: AdminSession, project: Pick<Project, 'id' | 'name'>, key?: string) => {
    let projectKeys = current.projectKeys;
    if (key) projectKeys = { ...projectKeys, [project.id]: { key, keyId: null } };
    else if (!projectKeys[project.id]) {
      const created = await createKey(new Api(current.adminToken), project.id, 'secret', { name: 'Dashboard session', session: true });
      projectKeys = { ...projectKeys, [project.id]: { key: created.key, keyId: created.id } };
    }
    setSession({ ...current, projectId: project.id, projectName: project.name, projectKeys });
  }, [setSession]);

  const signIn = useCallback(async (input: string) => {
    const secret = input.trim();
    if (secret.startsWith('pk_')) {
      throw new ApiError(403, 'FORBIDDEN', 'Public keys (pk_) only track events. Sign in with a secret key (sk_) or the admin token.');
    }
    if (secret.startsWith('sk_')) {
      await checkProjectKey(secret);
      setNotice(null);
      setSession({ mode: 'project', key: secret });
      return;
    }
    const projects = await listProjects(new Api(secret));
    const first = projects.items.length === 1 ? projects.items[0] : undefined;
    const admin: AdminSession = { mode: 'admin', adminToken: secret, projectId: null, projectName: null, projectKeys: {} };
    setNotice(null);
    setSession(admin);
    if (first) await openProjectIn(admin, first);
  }, [setSession, openProjectIn]);

  const openProject = useCallback(async (project: Pick<Project, 'id' | 'name'>, key?: string) => {
    if (session?.mode !== 'admin') throw new Error('only an admin switches projects');
    await openProjectIn(session, project, key);
  }, [session, openProjectIn]);

  useEffect(() => {
    if (session?.mode !== 'admin') return undefined;
    // Leaving the page in any way (closing the tab, reloading, navigating away) revokes the keys this session
    // made; the admin token stays in this tab's storage, so a reload or a return makes a new key.
    const leave = () => {
      for (const entry of Object.values(session.projectKeys)) if (entry.keyId) revokeSessionKeyOnLeave(entry.key);
      saveSession(withoutSessionKeys(session));
    };
    const back = (event: PageTransitionEvent) => {
      if (event.persisted) setSessionState(loadSession());
    };
    window.addEventListener('pagehide', leave);
    window.addEventListener('pageshow', back);
    return () => {
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('pageshow', back);
    };
  }, [session]);

  useEffect(() => {
    // An admin session back from a reload has its project but no key: make a new session key for it.
    if (session?.mode !== 'admin' || !session.projectId || session.projectKeys[session.projectId]) return;
    openProjectIn(session, { id: session.projectId, name: session.projectName ?? '' }).catch((error: unknown) => {
      if (error instanceof ApiError) expire(error);
    });
  }, [session, openProjectIn, expire]);

  const signOut = useCallback(async () => {
    if (session?.mode === 'admin') {
      const admin = new Api(session.adminToken);
      // The keys this session made are revoked; a project's own key (from creating it) is the user's to keep.
      await Promise.allSettled(Object.entries(session.projectKeys)
        .filter(([, entry]) => entry.keyId)
        .map(([projectId, entry]) => revokeKey(admin, projectId, entry.keyId!)));
    }
    setNotice(null);
    setSession(null);
  }, [session, setSession]);

  const value = useMemo<SessionValue>(() => {
    const key = session ? projectKeyOf(session) : null;
    return {
      session,
      api: key ? new Api(key, expire) : null,
      adminApi: session?.mode === 'admin' ? new Api(session.adminToken, expire) : null,
      notice,
      signIn,
      signOut,
      openProject,
      projectsVersion,
      projectsChanged,
    };
  }, [session, notice, expire, signIn, signOut, openProject, projectsVersion, projectsChanged]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

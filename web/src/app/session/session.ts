// A signed-in key lives in sessionStorage only: never in a URL, gone when the tab closes or on sign-out.
// A signed-in person's session is an HttpOnly cookie the page never sees; localStorage keeps only a note that
// someone signed in here and the project they had open, so a reload (or another tab) asks the server for the
// session instead of showing the sign-in page.

import type { Data } from '../../shared/api/operations.ts';

export interface ProjectSession {
  mode: 'project';
  key: string;
}

export interface AdminSession {
  mode: 'admin';
  adminToken: string;
  projectId: string | null;
  projectName: string | null;
  /** Secret keys this session made for the projects it opened, revoked again on sign-out. */
  projectKeys: Record<string, { key: string; keyId: string | null }>;
}

/** A person signed in with the session cookie, working in one of their projects (null: none open). */
export interface PersonSession {
  mode: 'person';
  projectId: string | null;
}

export type Session = ProjectSession | AdminSession | PersonSession;

/** What the server says of a signed-in person: their account, their projects with their role, the CSRF token. */
export type Account = Data<'/auth/session'>;
export type Role = Account['projects'][number]['role'];
export type AccountProject = Account['projects'][number];

/** The roles from the least to the most: each may do what the ones before it may. */
export const ROLES: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];

/** Whether `role` may do what `least` may. */
export const atLeast = (role: Role, least: Role) => ROLES.indexOf(role) >= ROLES.indexOf(least);

const STORAGE_KEY = 'herald.session';
const PERSON_KEY = 'herald.person';

export function loadSession(): Session | null {
  try {
    const text = sessionStorage.getItem(STORAGE_KEY);
    if (!text) return null;
    const value = JSON.parse(text) as Session;
    return value.mode === 'project' || value.mode === 'admin' ? value : null;
  } catch {
    return null;
  }
}

/** Keeps a key session in this tab, or the note of a person's session in this browser. */
export function saveSession(session: Session): void {
  if (session.mode === 'person') {
    // A person signing in (from an invitation, say) replaces a key this tab was signed in with.
    sessionStorage.removeItem(STORAGE_KEY);
    localStorage.setItem(PERSON_KEY, JSON.stringify({ projectId: session.projectId }));
    return;
  }
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
  localStorage.removeItem(PERSON_KEY);
}

/** The note a person's sign-in left in this browser (the project they had open), or null. */
export function loadPersonNote(): PersonSession | null {
  try {
    const text = localStorage.getItem(PERSON_KEY);
    if (!text) return null;
    const value = JSON.parse(text) as { projectId?: unknown };
    return { mode: 'person', projectId: typeof value.projectId === 'string' ? value.projectId : null };
  } catch {
    return null;
  }
}

/** Notes, before leaving for single sign-on, that the page it comes back to should ask for the session. */
export function notePersonSignIn(): void {
  if (!loadPersonNote()) saveSession({ mode: 'person', projectId: null });
}

/** The project key API calls use now, or null (a person, or an admin with no project chosen). */
export function projectKeyOf(session: Session): string | null {
  if (session.mode === 'project') return session.key;
  if (session.mode === 'person') return null;
  return session.projectId ? (session.projectKeys[session.projectId]?.key ?? null) : null;
}

/**
 * Which project's data the page shows: its id, or `key` for a project's secret key (the page never learns the id
 * behind it); null while no project is open. Cached answers belong to it.
 */
export function projectScopeOf(session: Session | null): string | null {
  if (!session) return null;
  return session.mode === 'project' ? 'key' : session.projectId;
}

/** The admin session without the keys it made (after they were revoked on leaving the page). */
export function withoutSessionKeys(session: AdminSession): AdminSession {
  return {
    ...session,
    projectKeys: Object.fromEntries(Object.entries(session.projectKeys).filter(([, entry]) => !entry.keyId)),
  };
}

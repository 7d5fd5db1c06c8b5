// The signed-in key lives in sessionStorage only: never in a URL, gone when the tab closes or on sign-out.

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

export type Session = ProjectSession | AdminSession;

const STORAGE_KEY = 'herald.session';

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

export function saveSession(session: Session): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

/** The project key API calls use now, or null (admin signed in, no project chosen). */
export function projectKeyOf(session: Session): string | null {
  if (session.mode === 'project') return session.key;
  return session.projectId ? (session.projectKeys[session.projectId]?.key ?? null) : null;
}

/** The admin session without the keys it made (after they were revoked on leaving the page). */
export function withoutSessionKeys(session: AdminSession): AdminSession {
  return { ...session, projectKeys: Object.fromEntries(Object.entries(session.projectKeys).filter(([, entry]) => !entry.keyId)) };
}

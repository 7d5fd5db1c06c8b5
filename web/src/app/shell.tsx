import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { CircleUser, LogOut, Mail, Menu } from 'lucide-react';
import { listProjects, PROJECTS_KEY } from '../features/projects/api.ts';
import { getSettings } from '../features/settings/api.ts';
import { useProjectQuery } from '../shared/api/queries.ts';
import { Link, matchPath, navigate, usePath } from '../shared/router.tsx';
import { mayOpen, NAV_ROUTES, type Visitor } from './routes.tsx';
import { useSession } from './session/session-context.tsx';

function isCurrent(to: string, path: string): boolean {
  if (to === '/') return matchPath('/', path) !== null;
  return matchPath(to, path) !== null || path.startsWith(`/app${to}/`);
}

/** After a switch of project, the same section in the other one; an id of this one would not be found there. */
function sameSection(): string {
  const section = window.location.pathname.split('/')[2] ?? '';
  return section && section !== 'projects' && section !== 'profile' ? `/${section}` : '/';
}

/** Opening another project from a switcher: the same section in it, or the error that kept it from opening. */
function useProjectChange(projects: readonly { id: string; name: string }[]) {
  const { openProject } = useSession();
  const [error, setError] = useState<string | null>(null);
  const change = async (projectId: string) => {
    const project = projects.find((p) => p.id === projectId);
    if (!project) return;
    setError(null);
    try {
      await openProject(project);
      navigate(sameSection());
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return { error, change };
}

/** The admin token's project switcher: every project of the instance (opening one makes it a session key). */
function AdminProjectSwitcher() {
  const { adminApi, session } = useSession();
  const id = useId();
  const projects = useQuery({
    queryKey: PROJECTS_KEY,
    queryFn: () => listProjects(adminApi!),
    enabled: adminApi !== null,
  });
  const { error, change } = useProjectChange(projects.data?.items ?? []);
  if (session?.mode !== 'admin') return null;
  return (
    <div className="switcher">
      <label htmlFor={id}>Project</label>
      <select
        id={id}
        value={session.projectId ?? ''}
        onChange={(e) => void change(e.target.value)}
        disabled={!projects.data}
      >
        {!session.projectId && <option value="">Choose…</option>}
        {projects.data?.items.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
            {p.disabled ? ' (disabled)' : ''}
          </option>
        ))}
      </select>
      <Link to="/projects" className="small-link">
        Manage
      </Link>
      {error && (
        <span role="alert" className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** Who a project key signs in as: its project's name (the same answer the settings page reads and renames). */
function KeyProjectName() {
  const settings = useProjectQuery(['settings'], getSettings);
  return (
    <span className="muted project-name" title="Signed in with this project's API key" data-testid="key-project">
      {settings.data?.name ?? 'Project key'}
    </span>
  );
}

/** A signed-in person's project switcher: their projects, each with their role in it. */
function PersonProjectSwitcher() {
  const { account, session } = useSession();
  const id = useId();
  const { error, change } = useProjectChange(account?.projects ?? []);
  if (session?.mode !== 'person' || !account) return null;
  if (account.projects.length === 0) return <span className="muted">No project</span>;
  return (
    <div className="switcher">
      <label htmlFor={id}>Project</label>
      <select id={id} value={session.projectId ?? ''} onChange={(e) => void change(e.target.value)}>
        {account.projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.role})
          </option>
        ))}
      </select>
      {account.user.isAdmin && (
        <Link to="/projects" className="small-link">
          Manage
        </Link>
      )}
      {error && (
        <span role="alert" className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

const SignOutButton = ({ onClick }: { onClick: () => void }) => (
  <button type="button" className="secondary" onClick={onClick}>
    <LogOut className="icon" aria-hidden="true" />
    Sign out
  </button>
);

/** Whether a menu is open, and its toggle and closing: a menu opened on one page is closed on the next. */
function useMenu(): [open: boolean, toggle: () => void, close: () => void] {
  const path = usePath();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === path;
  const close = useCallback(() => setOpenOn(null), []);
  return [open, () => setOpenOn(open ? null : path), close];
}

/** The signed-in person's menu: their profile, and signing out. */
function UserMenu() {
  const { account, signOut } = useSession();
  const id = useId();
  const [open, toggle, close] = useMenu();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    // The menu closes on Escape and on a click anywhere else.
    const key = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    const click = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('keydown', key);
    document.addEventListener('mousedown', click);
    return () => {
      document.removeEventListener('keydown', key);
      document.removeEventListener('mousedown', click);
    };
  }, [open, close]);
  if (!account) return null;
  return (
    <div className="user-menu" ref={box}>
      <button
        type="button"
        className="secondary"
        aria-expanded={open}
        aria-controls={id}
        onClick={toggle}
        title={account.user.email}
      >
        <CircleUser className="icon" aria-hidden="true" />
        {account.user.name || account.user.email}
      </button>
      <ul id={id} className="user-menu-list" hidden={!open}>
        <li className="muted user-menu-email">{account.user.email}</li>
        <li>
          <Link to="/profile">Profile</Link>
        </li>
        <li>
          <SignOutButton onClick={() => void signOut()} />
        </li>
      </ul>
    </div>
  );
}

/** The frame of every signed-in page: header, navigation (a menu on phones), content. */
export function Shell({ children, visitor }: { children: ReactNode; visitor: Visitor }) {
  const { session, signOut, twoFactorRequired, api } = useSession();
  const path = usePath();
  const [menuOpen, toggleMenu] = useMenu();
  const person = session?.mode === 'person';
  // Until two-factor is set up, a project that requires it offers nothing but the profile; a person in no project
  // has no project pages.
  const entries = twoFactorRequired
    ? []
    : NAV_ROUTES.filter((r) => mayOpen(r.access, visitor) && (r.nav.section === 'admin' || !person || api !== null));
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          <span className="logo" aria-hidden="true">
            <Mail className="icon" />
          </span>{' '}
          Herald
        </Link>
        <button
          type="button"
          className="secondary menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={toggleMenu}
        >
          <Menu className="icon" aria-hidden="true" />
          Menu
        </button>
        <div className="topbar-right">
          {session?.mode === 'admin' && <AdminProjectSwitcher />}
          {person && <PersonProjectSwitcher />}
          {session?.mode === 'project' && <KeyProjectName />}
          {person ? <UserMenu /> : <SignOutButton onClick={() => void signOut()} />}
        </div>
      </header>
      <nav id="nav" className={menuOpen ? 'sidebar open' : 'sidebar'} aria-label="Main">
        <ul>
          {entries.map(({ path: to, nav }) => (
            <li key={to}>
              <Link to={to} aria-current={isCurrent(to, path) ? 'page' : undefined}>
                <nav.icon className="icon" aria-hidden="true" />
                {nav.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

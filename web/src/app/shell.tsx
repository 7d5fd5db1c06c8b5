import { useEffect, useId, useState, type ReactNode } from 'react';
import { LogOut, Mail, Menu } from 'lucide-react';
import { listProjects } from '../features/projects/api.ts';
import { useAsync } from '../shared/hooks/use-async.ts';
import { Link, matchPath, navigate, usePath } from '../shared/router.tsx';
import { NAV_ROUTES } from './routes.tsx';
import { useSession } from './session/session-context.tsx';

function isCurrent(to: string, path: string): boolean {
  if (to === '/') return matchPath('/', path) !== null;
  return matchPath(to, path) !== null || path.startsWith(`/app${to}/`);
}

function ProjectSwitcher() {
  const { adminApi, session, openProject, projectsVersion } = useSession();
  const id = useId();
  const projects = useAsync(() => listProjects(adminApi!), [adminApi, projectsVersion]);
  const [error, setError] = useState<string | null>(null);
  if (session?.mode !== 'admin') return null;
  const change = async (projectId: string) => {
    const project = projects.data?.items.find((p) => p.id === projectId);
    if (!project) return;
    setError(null);
    try {
      await openProject(project);
      // The same section in the other project; an id of this one would not be found there.
      const section = window.location.pathname.split('/')[2] ?? '';
      navigate(section && section !== 'projects' ? `/${section}` : '/');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div className="switcher">
      <label htmlFor={id}>Project</label>
      <select id={id} value={session.projectId ?? ''} onChange={(e) => void change(e.target.value)} disabled={!projects.data}>
        {!session.projectId && <option value="">Choose…</option>}
        {projects.data?.items.map((p) => <option key={p.id} value={p.id}>{p.name}{p.disabled ? ' (disabled)' : ''}</option>)}
      </select>
      <Link to="/projects" className="small-link">Manage</Link>
      {error && <span role="alert" className="field-error">{error}</span>}
    </div>
  );
}

/** The frame of every signed-in page: header, navigation (a menu on phones), content. */
export function Shell({ children }: { children: ReactNode }) {
  const { session, signOut } = useSession();
  const path = usePath();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  const projectLabel = session?.mode === 'project' ? 'Project key' : session?.projectName ?? 'No project open';
  return (
    <div className="shell">
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="topbar">
        <Link to="/" className="brand"><span className="logo" aria-hidden="true"><Mail className="icon" /></span> Herald</Link>
        <button type="button" className="secondary menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen((o) => !o)}><Menu className="icon" aria-hidden="true" />Menu</button>
        <div className="topbar-right">
          {session?.mode === 'admin' ? <ProjectSwitcher /> : <span className="muted">{projectLabel}</span>}
          <button type="button" className="secondary" onClick={() => void signOut()}><LogOut className="icon" aria-hidden="true" />Sign out</button>
        </div>
      </header>
      <nav id="nav" className={menuOpen ? 'sidebar open' : 'sidebar'} aria-label="Main">
        <ul>
          {NAV_ROUTES.filter((r) => r.nav.section === 'project' || session?.mode === 'admin').map(({ path: to, nav }) => (
            <li key={to}><Link to={to} aria-current={isCurrent(to, path) ? 'page' : undefined}><nav.icon className="icon" aria-hidden="true" />{nav.label}</Link></li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>{children}</main>
    </div>
  );
}

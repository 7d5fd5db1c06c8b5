import { useEffect, useRef, type ReactNode } from 'react';
import { ProfilePage } from '../features/account/pages/profile-page.tsx';
import { ProjectsPage } from '../features/projects/pages/projects-page.tsx';
import { APP_BASE, matchPath, navigate, usePath } from '../shared/router.tsx';
import { PageHeader } from '../shared/ui/page-header.tsx';
import { NotFound } from './not-found.tsx';
import { mayOpen, OUTSIDE_ROUTES, ROUTES, type Route, type Visitor } from './routes.tsx';
import { useSession } from './session/session-context.tsx';
import { SignIn } from './session/sign-in.tsx';
import { Shell } from './shell.tsx';

/** The route of the table whose pattern matches a path first, with its params. */
function findRoute(path: string): { route: Route; params: Record<string, string> } | null {
  for (const route of ROUTES) {
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return null;
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

function Forbidden({ visitor }: { visitor: Visitor }) {
  const role = visitor.role ?? 'member';
  return (
    <>
      <PageHeader title="Not for your role" />
      <p>
        {visitor.mode === 'person'
          ? `You are ${article(role)} ${role} of this project: this page is for other roles.`
          : 'This page is for people signed in with their own account: keys and the admin token cannot open it.'}
      </p>
    </>
  );
}

function NoProject() {
  return (
    <>
      <PageHeader title="No project" />
      <p>
        You are not in any project yet. Ask an owner or admin of one to invite you: their invitation link brings you in.
      </p>
    </>
  );
}

const Waiting = ({ label }: { label: string }) => (
  <main className="sign-in" id="main">
    <p role="status">{label}</p>
  </main>
);

export function App() {
  const { session, api, checking, account, role, twoFactorRequired } = useSession();
  const path = usePath();
  const shownPath = useRef(path);
  const outside = path.startsWith(APP_BASE) ? undefined : OUTSIDE_ROUTES.find((r) => matchPath(r.path, path));

  useEffect(() => {
    // The server serves the app at `/` too; its pages live under /app, those of signing in beside it.
    if (!path.startsWith(APP_BASE) && !outside) navigate('/', { replace: true });
  }, [path, outside]);

  useEffect(() => {
    // After a navigation (not on load), keyboard and screen-reader users start at the new page's content.
    if (shownPath.current === path) return;
    shownPath.current = path;
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [path]);

  useEffect(() => {
    // A project that requires two-factor of a person without it: their profile, to set it up, is all there is.
    if (twoFactorRequired && !matchPath('/profile', path)) navigate('/profile', { replace: true });
  }, [twoFactorRequired, path]);

  if (checking) return <Waiting label="Signing in…" />;
  if (outside) return <>{outside.page()}</>;
  if (!session) return <SignIn />;
  // Back from a reload, an admin's project gets a new session key first.
  if (!api && session.mode === 'admin' && session.projectId) {
    return <Waiting label={`Opening ${session.projectName ?? 'the project'}…`} />;
  }
  if (session.mode === 'person' && !account) return <Waiting label="Signing in…" />;

  const instanceAdmin = session.mode === 'admin' || Boolean(account?.user.isAdmin);
  const visitor: Visitor = { mode: session.mode, role, instanceAdmin };
  const found = findRoute(path);
  let page: ReactNode;
  if (twoFactorRequired) page = <ProfilePage />;
  else if (!found) page = <NotFound />;
  else if (!mayOpen(found.route.access, visitor)) page = <Forbidden visitor={visitor} />;
  else if (!api && !found.route.access?.noProject) page = visitor.instanceAdmin ? <ProjectsPage /> : <NoProject />;
  else page = found.route.page(found.params);
  // A switch of project starts every page afresh.
  const shellKey = session.mode === 'project' ? 'project' : (session.projectId ?? '');
  return (
    <Shell key={shellKey} visitor={visitor}>
      {page}
    </Shell>
  );
}

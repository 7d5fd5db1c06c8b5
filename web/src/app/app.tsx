import { useEffect, useRef, type ReactNode } from 'react';
import { ProjectsPage } from '../features/projects/pages/projects-page.tsx';
import { matchPath, navigate, usePath } from '../shared/router.tsx';
import { NotFound } from './not-found.tsx';
import { ROUTES } from './routes.tsx';
import { useSession } from './session/session-context.tsx';
import { SignIn } from './session/sign-in.tsx';
import { Shell } from './shell.tsx';

/** The page at a path: the first route of the table whose pattern matches. */
function route(path: string): ReactNode {
  for (const { path: pattern, page } of ROUTES) {
    const params = matchPath(pattern, path);
    if (params) return page(params);
  }
  return <NotFound />;
}

export function App() {
  const { session, api } = useSession();
  const path = usePath();
  const shownPath = useRef(path);

  useEffect(() => {
    // The server serves the app at `/` too; its pages live under /app.
    if (!path.startsWith('/app')) navigate('/', { replace: true });
  }, [path]);

  useEffect(() => {
    // After a navigation (not on load), keyboard and screen-reader users start at the new page's content.
    if (shownPath.current === path) return;
    shownPath.current = path;
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [path]);

  if (!session) return <SignIn />;
  // Back from a reload, an admin's project gets a new session key first.
  if (!api && session.mode === 'admin' && session.projectId) return <main className="sign-in" id="main"><p role="status">Opening {session.projectName}…</p></main>;
  // An admin without an open project can only manage projects.
  const page = !api && !matchPath('/projects', path) ? <ProjectsPage /> : route(path);
  // A switch of project starts every page afresh.
  return <Shell key={session.mode === 'admin' ? session.projectId ?? '' : 'project'}>{page}</Shell>;
}

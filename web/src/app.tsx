import { useEffect, useRef, type ReactNode } from 'react';
import { SignIn } from './auth/sign-in.tsx';
import { useSession } from './auth/session-context.tsx';
import { CampaignPage } from './pages/campaigns/campaign-page.tsx';
import { CampaignsPage } from './pages/campaigns/campaigns-page.tsx';
import { ContactPage } from './pages/contacts/contact-page.tsx';
import { ContactsPage } from './pages/contacts/contacts-page.tsx';
import { DomainPage } from './pages/domains/domain-page.tsx';
import { DomainsPage } from './pages/domains/domains-page.tsx';
import { EmailPage } from './pages/emails/email-page.tsx';
import { EmailsPage } from './pages/emails/emails-page.tsx';
import { NotFound } from './pages/not-found.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { ProjectsPage } from './pages/projects.tsx';
import { SegmentPage } from './pages/segments/segment-page.tsx';
import { SegmentsPage } from './pages/segments/segments-page.tsx';
import { SettingsPage } from './pages/settings.tsx';
import { TemplatePage } from './pages/templates/template-page.tsx';
import { TemplatesPage } from './pages/templates/templates-page.tsx';
import { WebhookPage } from './pages/webhooks/webhook-page.tsx';
import { WebhooksPage } from './pages/webhooks/webhooks-page.tsx';
import { WorkflowPage } from './pages/workflows/workflow-page.tsx';
import { WorkflowsPage } from './pages/workflows/workflows-page.tsx';
import { matchPath, navigate, usePath } from './router.tsx';
import { Shell } from './shell.tsx';

type Render = (params: Record<string, string>) => ReactNode;

/** Every page of the dashboard; `:id` of `new` opens the page's create form. */
const ROUTES: [string, Render][] = [
  ['/', () => <OverviewPage />],
  ['/contacts', () => <ContactsPage />],
  ['/contacts/:id', (p) => <ContactPage id={p.id!} />],
  ['/segments', () => <SegmentsPage />],
  ['/segments/:id', (p) => <SegmentPage id={p.id!} />],
  ['/templates', () => <TemplatesPage />],
  ['/templates/:id', (p) => <TemplatePage id={p.id!} />],
  ['/campaigns', () => <CampaignsPage />],
  ['/campaigns/:id', (p) => <CampaignPage id={p.id!} />],
  ['/workflows', () => <WorkflowsPage />],
  ['/workflows/:id', (p) => <WorkflowPage id={p.id!} />],
  ['/emails', () => <EmailsPage />],
  ['/emails/:id', (p) => <EmailPage id={p.id!} />],
  ['/domains', () => <DomainsPage />],
  ['/domains/:id', (p) => <DomainPage id={p.id!} />],
  ['/webhooks', () => <WebhooksPage />],
  ['/webhooks/:id', (p) => <WebhookPage id={p.id!} />],
  ['/settings', () => <SettingsPage />],
  ['/projects', () => <ProjectsPage />],
];

function route(path: string): ReactNode {
  for (const [pattern, render] of ROUTES) {
    const params = matchPath(pattern, path);
    if (params) return render(params);
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
  // An admin without an open project can only manage projects.
  const page = !api && !matchPath('/projects', path) ? <ProjectsPage /> : route(path);
  // A switch of project starts every page afresh.
  return <Shell key={session.mode === 'admin' ? session.projectId ?? '' : 'project'}>{page}</Shell>;
}

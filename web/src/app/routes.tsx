// The one list of the dashboard's pages: the router renders from it and the navigation is drawn from it.
import type { ReactNode } from 'react';
import {
  Activity,
  ClipboardList,
  FileText,
  FolderKanban,
  Globe,
  Inbox,
  LayoutDashboard,
  PanelsTopLeft,
  ListChecks,
  ListFilter,
  Mail,
  Megaphone,
  Route as RouteIcon,
  ScrollText,
  Settings,
  UserCog,
  Users,
  Webhook,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import { ForgotPasswordPage } from '../features/account/pages/forgot-password-page.tsx';
import { InvitePage } from '../features/account/pages/invite-page.tsx';
import { ProfilePage } from '../features/account/pages/profile-page.tsx';
import { ResetPasswordPage } from '../features/account/pages/reset-password-page.tsx';
import { SetupPage } from '../features/account/pages/setup-page.tsx';
import { AuditLogPage } from '../features/audit/pages/audit-log-page.tsx';
import { RequestLogPage } from '../features/logs/pages/request-log-page.tsx';
import { RequestLogEntryPage } from '../features/logs/pages/request-log-entry-page.tsx';
import { CampaignPage } from '../features/campaigns/pages/campaign-page.tsx';
import { CampaignsPage } from '../features/campaigns/pages/campaigns-page.tsx';
import { ContactPage } from '../features/contacts/pages/contact-page.tsx';
import { ContactsPage } from '../features/contacts/pages/contacts-page.tsx';
import { DomainPage } from '../features/domains/pages/domain-page.tsx';
import { DeliverabilityPage } from '../features/domains/pages/deliverability-page.tsx';
import { DomainsPage } from '../features/domains/pages/domains-page.tsx';
import { FormPage } from '../features/forms/pages/form-page.tsx';
import { FormsPage } from '../features/forms/pages/forms-page.tsx';
import { EmailPage } from '../features/emails/pages/email-page.tsx';
import { EmailsPage } from '../features/emails/pages/emails-page.tsx';
import { InboundMessagePage } from '../features/inbound/pages/inbound-message-page.tsx';
import { InboundPage } from '../features/inbound/pages/inbound-page.tsx';
import { LayoutPage } from '../features/layouts/pages/layout-page.tsx';
import { LayoutsPage } from '../features/layouts/pages/layouts-page.tsx';
import { OverviewPage } from '../features/overview/pages/overview-page.tsx';
import { ProjectsPage } from '../features/projects/pages/projects-page.tsx';
import { SegmentPage } from '../features/segments/pages/segment-page.tsx';
import { SegmentsPage } from '../features/segments/pages/segments-page.tsx';
import { SettingsPage } from '../features/settings/pages/settings-page.tsx';
import { TeamPage } from '../features/team/pages/team-page.tsx';
import { TransportPage } from '../features/transports/pages/transport-page.tsx';
import { TransportsPage } from '../features/transports/pages/transports-page.tsx';
import { TopicPage } from '../features/topics/pages/topic-page.tsx';
import { TopicsPage } from '../features/topics/pages/topics-page.tsx';
import { TemplatePage } from '../features/templates/pages/template-page.tsx';
import { TemplatesPage } from '../features/templates/pages/templates-page.tsx';
import { WebhookPage } from '../features/webhooks/pages/webhook-page.tsx';
import { WebhooksPage } from '../features/webhooks/pages/webhooks-page.tsx';
import { WorkflowPage } from '../features/workflows/pages/workflow-page.tsx';
import { WorkflowsPage } from '../features/workflows/pages/workflows-page.tsx';
import { atLeast, type Role } from './session/session.ts';

/** Who may open a page; a page that says nothing is for anyone signed in with a project open. */
export interface Access {
  /** The least role a signed-in person needs in the open project (a key or the admin token may open it). */
  role?: Role;
  /** Only for signed-in people: keys and the admin token cannot call what it shows. */
  person?: boolean;
  /** For the admin token and instance admins only. */
  instanceAdmin?: boolean;
  /** Opens without a project (one's own profile, the list of projects). */
  noProject?: boolean;
}

/** Who is signed in, as page access is decided. */
export interface Visitor {
  mode: 'project' | 'admin' | 'person';
  /** A person's role in the open project (null: a key or the admin token, or no project open). */
  role: Role | null;
  instanceAdmin: boolean;
}

/** Whether `visitor` may open a page with `access`. */
export function mayOpen(access: Access | undefined, visitor: Visitor): boolean {
  if (!access) return true;
  if (access.person && visitor.mode !== 'person') return false;
  if (access.instanceAdmin && !visitor.instanceAdmin) return false;
  if (access.role && visitor.mode === 'person' && !(visitor.role && atLeast(visitor.role, access.role))) return false;
  return true;
}

export interface Route {
  /** The path under /app, `:name` for a parameter; `:id` of `new` opens the page's create form. */
  path: string;
  page: (params: Record<string, string>) => ReactNode;
  access?: Access;
  /**
   * Its entry in the navigation, if it has one (shown to those who may open it): `project` pages of the open
   * project, `admin` pages of the whole instance. An entry is also current on the pages below its path
   * (`/contacts/…`).
   */
  nav?: { label: string; section: 'project' | 'admin'; icon: LucideIcon };
}

export const ROUTES: Route[] = [
  { path: '/', page: () => <OverviewPage />, nav: { label: 'Overview', section: 'project', icon: LayoutDashboard } },
  { path: '/contacts', page: () => <ContactsPage />, nav: { label: 'Contacts', section: 'project', icon: Users } },
  { path: '/contacts/:id', page: (p) => <ContactPage id={p.id!} /> },
  { path: '/segments', page: () => <SegmentsPage />, nav: { label: 'Segments', section: 'project', icon: ListFilter } },
  { path: '/segments/:id', page: (p) => <SegmentPage id={p.id!} /> },
  { path: '/topics', page: () => <TopicsPage />, nav: { label: 'Topics', section: 'project', icon: ListChecks } },
  { path: '/topics/:id', page: (p) => <TopicPage id={p.id!} /> },
  { path: '/forms', page: () => <FormsPage />, nav: { label: 'Forms', section: 'project', icon: ClipboardList } },
  { path: '/forms/:id', page: (p) => <FormPage id={p.id!} /> },
  {
    path: '/templates',
    page: () => <TemplatesPage />,
    nav: { label: 'Templates', section: 'project', icon: FileText },
  },
  { path: '/templates/:id', page: (p) => <TemplatePage id={p.id!} /> },
  { path: '/layouts', page: () => <LayoutsPage />, nav: { label: 'Layouts', section: 'project', icon: PanelsTopLeft } },
  { path: '/layouts/:id', page: (p) => <LayoutPage id={p.id!} /> },
  {
    path: '/campaigns',
    page: () => <CampaignsPage />,
    nav: { label: 'Campaigns', section: 'project', icon: Megaphone },
  },
  { path: '/campaigns/:id', page: (p) => <CampaignPage id={p.id!} /> },
  {
    path: '/workflows',
    page: () => <WorkflowsPage />,
    nav: { label: 'Workflows', section: 'project', icon: Workflow },
  },
  { path: '/workflows/:id', page: (p) => <WorkflowPage id={p.id!} /> },
  { path: '/emails', page: () => <EmailsPage />, nav: { label: 'Emails', section: 'project', icon: Mail } },
  { path: '/emails/:id', page: (p) => <EmailPage id={p.id!} /> },
  { path: '/inbound', page: () => <InboundPage />, nav: { label: 'Inbound', section: 'project', icon: Inbox } },
  { path: '/inbound/:id', page: (p) => <InboundMessagePage id={p.id!} /> },
  { path: '/domains', page: () => <DomainsPage />, nav: { label: 'Domains', section: 'project', icon: Globe } },
  { path: '/domains/:id', page: (p) => <DomainPage id={p.id!} /> },
  { path: '/domains/:id/deliverability', page: (p) => <DeliverabilityPage id={p.id!} /> },
  { path: '/webhooks', page: () => <WebhooksPage />, nav: { label: 'Webhooks', section: 'project', icon: Webhook } },
  { path: '/webhooks/:id', page: (p) => <WebhookPage id={p.id!} /> },
  {
    path: '/transports',
    page: () => <TransportsPage />,
    access: { role: 'admin' },
    nav: { label: 'Transports', section: 'project', icon: RouteIcon },
  },
  { path: '/transports/:id', page: (p) => <TransportPage id={p.id!} />, access: { role: 'admin' } },
  { path: '/settings', page: () => <SettingsPage />, nav: { label: 'Settings', section: 'project', icon: Settings } },
  {
    path: '/team',
    page: () => <TeamPage />,
    access: { person: true, role: 'admin' },
    nav: { label: 'Team', section: 'project', icon: UserCog },
  },
  {
    path: '/audit-log',
    page: () => <AuditLogPage />,
    access: { role: 'admin' },
    nav: { label: 'Audit log', section: 'project', icon: ScrollText },
  },
  {
    path: '/logs',
    page: () => <RequestLogPage />,
    access: { role: 'admin' },
    nav: { label: 'Request log', section: 'project', icon: Activity },
  },
  { path: '/logs/:id', page: (p) => <RequestLogEntryPage id={p.id!} />, access: { role: 'admin' } },
  { path: '/profile', page: () => <ProfilePage />, access: { person: true, noProject: true } },
  {
    path: '/projects',
    page: () => <ProjectsPage />,
    access: { instanceAdmin: true, noProject: true },
    nav: { label: 'Projects', section: 'admin', icon: FolderKanban },
  },
];

/** The pages before the dashboard, outside /app (router.tsx lists their paths). */
export const OUTSIDE_ROUTES: { path: string; page: () => ReactNode }[] = [
  { path: '/setup', page: () => <SetupPage /> },
  { path: '/invite', page: () => <InvitePage /> },
  { path: '/reset-password', page: () => <ResetPasswordPage /> },
  { path: '/forgot-password', page: () => <ForgotPasswordPage /> },
];

/** The entries of the navigation, in the order of the table. */
export const NAV_ROUTES = ROUTES.filter((r): r is Route & Required<Pick<Route, 'nav'>> => r.nav !== undefined);

// The accounts module: people who sign in (users), their sessions, passwords and two-factor, and
// their memberships of projects.
import type { ModuleManifest } from '../../context.types.ts';
import { accountsCleanupJob } from './accounts.jobs.ts';
import { accountRoutes } from './accounts.routes.ts';

export const accountsModule: ModuleManifest = { name: 'accounts', routes: [accountRoutes], jobs: [accountsCleanupJob] };

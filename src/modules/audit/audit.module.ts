// The audit module: the append-only record of who changed what, written by every module in its changing transaction.
import type { ModuleManifest } from '../../context.types.ts';
import { auditRetentionJob } from './audit.jobs.ts';
import { auditRoutes } from './audit.routes.ts';

export const auditModule: ModuleManifest = { name: 'audit', routes: [auditRoutes], jobs: [auditRetentionJob] };

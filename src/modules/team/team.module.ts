// The team module: a project's members and invitations.
import type { ModuleManifest } from '../../context.types.ts';
import { teamRoutes } from './team.routes.ts';

export const teamModule: ModuleManifest = { name: 'team', routes: [teamRoutes] };

// The mcp module: the Model Context Protocol for AI agents (POST /mcp), tools over Herald's own API.
import type { ModuleManifest } from '../../context.types.ts';
import { mcpRoutes } from './mcp.routes.ts';

export const mcpModule: ModuleManifest = { name: 'mcp', routes: [mcpRoutes] };

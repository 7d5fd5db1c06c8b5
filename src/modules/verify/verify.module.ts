// The verify module: POST /v1/verify (address verification).
import type { ModuleManifest } from '../../context.types.ts';
import { verifyRoutes } from './verify.routes.ts';

export const verifyModule: ModuleManifest = { name: 'verify', routes: [verifyRoutes] };

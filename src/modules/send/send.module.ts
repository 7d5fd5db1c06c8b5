// The send module: POST /v1/send (transactional mail).
import type { ModuleManifest } from '../../context.types.ts';
import { sendRoutes } from './send.routes.ts';

export const sendModule: ModuleManifest = { name: 'send', routes: [sendRoutes] };

// The resend module: Resend's REST API under /resend, mapped onto Herald's send, emails, domains and contacts.
import type { ModuleManifest } from '../../context.types.ts';
import { resendRoutes } from './resend.routes.ts';

export const resendModule: ModuleManifest = { name: 'resend', routes: [resendRoutes] };

// The sso module: single sign-on with an OpenID Connect issuer (OIDC_ISSUER), beside password sign-in.
import type { ModuleManifest } from '../../context.types.ts';
import { ssoRoutes } from './sso.routes.ts';

export const ssoModule: ModuleManifest = { name: 'sso', routes: [ssoRoutes] };

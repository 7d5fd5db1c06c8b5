// A person's own account: signing in and out, first-run setup, password resets, invitations, two-factor.
import type { Api } from '../../shared/api/client.ts';
import type { Body } from '../../shared/api/operations.ts';

/** How people can sign in here (password, single sign-on), and whether the first user is still to be made. */
export const getSignInOptions = (api: Api) => api.get('/auth/options');

/** Email and password (and a two-factor code once the server asks for one): the session. */
export const signInWithPassword = (api: Api, body: Body<'/auth/sign-in', 'post'>) =>
  api.post('/auth/sign-in', { body });

export const signOutPerson = (api: Api) => api.post('/auth/sign-out');

/** The signed-in person (401 when no session is live). */
export const getAccount = (api: Api) => api.get('/auth/session');

/** The first user, with the setup link's token: signed in. */
export const setUp = (api: Api, body: Body<'/auth/setup', 'post'>) => api.post('/auth/setup', { body });

/** Always accepted: a link is mailed only when the address has an account. */
export const requestPasswordReset = (api: Api, email: string) => api.post('/auth/password-reset', { body: { email } });

/** A new password with a reset or set-password link's token: signed in. */
export const confirmPasswordReset = (api: Api, token: string, password: string) =>
  api.post('/auth/password-reset/confirm', { body: { token, password } });

/** A new name, or a new password with the current one (which ends every other session). */
export const updateMe = (api: Api, body: Body<'/auth/me', 'patch'>) => api.patch('/auth/me', { body });

/** A new two-factor secret, pending until a code of it is confirmed. */
export const setupTwoFactor = (api: Api) => api.post('/auth/2fa/setup');

/** Turns two-factor on with a current code; the answer holds the recovery codes, shown once. */
export const enableTwoFactor = (api: Api, code: string) => api.post('/auth/2fa/enable', { body: { code } });

export const disableTwoFactor = (api: Api, password: string, code: string) =>
  api.post('/auth/2fa/disable', { body: { password, code } });

/** What an invitation is for: the project, the role, and whether its address has an account. */
export const getInviteDetails = (api: Api, token: string) => api.post('/auth/invite-details', { body: { token } });

/** Accepts an invitation: signed in, as the signed-in person; otherwise as a new account with a name and password. */
export const acceptInvite = (api: Api, body: Body<'/auth/accept-invite', 'post'>) =>
  api.post('/auth/accept-invite', { body });

/** Leaves the project the client names (a member removing themselves). */
export const leaveProject = (api: Api, userId: string) => api.delete('/team/{userId}', { path: { userId } });

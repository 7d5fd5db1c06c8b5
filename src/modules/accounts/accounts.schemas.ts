import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { PASSWORD_MAX } from './accounts.passwords.ts';

const roleSchema = z.enum(['owner', 'admin', 'editor', 'viewer']);

export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    isAdmin: z
      .boolean()
      .meta({ description: 'An instance admin: may create projects and open every project as its owner' }),
    twoFactor: z.boolean(),
    createdAt: isoDate,
    lastSignInAt: isoDate.nullable(),
  })
  .meta({ id: 'User' });

export const sessionSchema = z
  .object({
    user: userSchema,
    projects: z.array(z.object({ id: z.string(), name: z.string(), role: roleSchema })),
    csrfToken: z.string().meta({
      description: 'Send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE made with the session cookie',
    }),
  })
  .meta({ id: 'Session' });

const email = z
  .string()
  .trim()
  .min(3)
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address');
// Rules past the length (the common-password list) are checked by the service, with a 422 naming the rule.
const password = z.string().max(PASSWORD_MAX + 1024);
const name = z.string().trim().min(1).max(200);
const token = z.string().min(1).max(200);

export const setupBody = z.object({ token, email, name, password }).strict();
export const signInBody = z
  .object({
    email: z.string().max(1000),
    password: z.string().max(PASSWORD_MAX + 1024),
    code: z
      .string()
      .max(100)
      .optional()
      .meta({ description: 'A two-factor code, or an unused recovery code, for a user with two-factor' }),
  })
  .strict();
export const resetBody = z.object({ email: z.string().max(1000) }).strict();
export const resetConfirmBody = z.object({ token, password }).strict();
export const updateMeBody = z
  .object({
    name: name.optional(),
    password: password.optional(),
    currentPassword: z
      .string()
      .max(PASSWORD_MAX + 1024)
      .optional()
      .meta({ description: 'Required to change the password (unless the account has none yet)' }),
  })
  .strict();
export const codeBody = z.object({ code: z.string().min(1).max(100) }).strict();
export const disableBody = z
  .object({ password: z.string().max(PASSWORD_MAX + 1024), code: z.string().min(1).max(100) })
  .strict();

export const optionsSchema = z
  .object({
    passwordSignIn: z
      .boolean()
      .meta({ description: 'False with OIDC_ONLY (instance admins may still use a password)' }),
    sso: z.boolean(),
    setupOpen: z
      .boolean()
      .meta({ description: 'No user exists yet: the setup link printed at the first start creates the first' }),
  })
  .meta({ id: 'SignInOptions' });

export const adminCreateUserBody = z
  .object({
    email,
    name: name.optional(),
    isAdmin: z.boolean().optional(),
    projectId: z.uuid().optional(),
    role: roleSchema.optional(),
  })
  .strict()
  .refine((body) => (body.projectId === undefined) === (body.role === undefined), {
    message: 'projectId and role go together',
    path: ['role'],
  });

/** What the API reference says about each account route, by operationId. */
export const accountRouteDocs = {
  setup:
    'With the setup link printed at the first start (while no user exists): the first user, an instance ' +
    'admin and owner of every project, signed in.',
  signIn:
    'Email and password (and `code` for two-factor): sets the `herald_session` cookie. A wrong email and a ' +
    'wrong password get the same 401; 5 failures for an email, or 30 from an address, within 15 minutes ' +
    'answer 429 for 15 minutes.',
  requestPasswordReset:
    'Always 202, whether or not the address has an account; the link (valid 1 hour, once) is mailed by the ' +
    "instance's system sender.",
  adminCreateUser:
    'A person with, optionally, a role in a project; answers a one-time link (valid 24 h) where they set ' +
    'their password. `herald users create` calls it.',
  adminDeleteUser:
    'Every session, membership and link of theirs ends at once. The last owner of a project is kept (409).',
  adminPasswordLink:
    'A one-time link (valid 24 h) that sets a new password, for an instance that cannot mail resets. ' +
    '`herald users reset-password` calls it.',
  setupTwoFactor:
    'A new TOTP secret and its otpauth:// URL (for a QR code); nothing changes until POST /auth/2fa/enable ' +
    'confirms a code.',
  enableTwoFactor:
    'With a current code of the secret from setup: two-factor is on, and ten recovery codes are shown (this' +
    ' once; each works once).',
} as const;

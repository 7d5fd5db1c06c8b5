import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { PASSWORD_MAX_INPUT } from './team.limits.ts';

export const roleSchema = z.enum(['owner', 'admin', 'editor', 'viewer']);

export const memberSchema = z
  .object({
    userId: z.string(),
    email: z.string(),
    name: z.string(),
    role: roleSchema,
    twoFactor: z.boolean(),
    joinedAt: isoDate,
    lastActiveAt: isoDate.nullable(),
  })
  .meta({ id: 'TeamMember' });

export const inviteSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: roleSchema,
    createdAt: isoDate,
    expiresAt: isoDate,
  })
  .meta({ id: 'Invite' });

export const createdInviteSchema = inviteSchema
  .extend({
    inviteUrl: z.string().meta({
      description:
        'The link to accept it (also mailed when the instance can send its own mail): share it yourself otherwise',
    }),
    mailed: z.boolean().meta({ description: "Whether the invitation was mailed by the instance's system sender" }),
  })
  .meta({ id: 'CreatedInvite' });

export const createInviteBody = z
  .object({
    email: z
      .string()
      .trim()
      .min(3)
      .max(254)
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address'),
    role: roleSchema,
  })
  .strict();

export const updateMemberBody = z.object({ role: roleSchema }).strict();
export const userParams = z.object({ userId: z.string() });

const token = z.string().min(1).max(200);
export const inviteTokenBody = z.object({ token }).strict();
export const acceptInviteBody = z
  .object({
    token,
    name: z.string().trim().min(1).max(200).optional(),
    password: z.string().max(PASSWORD_MAX_INPUT).optional(),
  })
  .strict();

export const inviteDetailsSchema = z
  .object({
    email: z.string(),
    role: roleSchema,
    projectName: z.string(),
    expiresAt: isoDate,
    hasAccount: z.boolean().meta({ description: 'The address has an account: sign in, then accept' }),
  })
  .meta({ id: 'InviteDetails' });

/** What the API reference says about each team route, by operationId. */
export const teamRouteDocs = {
  updateTeamMember:
    'Nobody raises their own role; only an owner changes an owner or makes one; the last owner stays (409).',
  removeTeamMember:
    'Owners and admins remove members (only an owner removes an owner); anyone may remove themselves; the ' +
    'last owner cannot go (409).',
  createInvite:
    "A single-use link valid 7 days, mailed by the instance's system sender and answered here too, so a " +
    'team works before mail is set up. Only an owner invites an owner.',
  acceptInvite:
    'Signed in: you join the project with the invited role. Otherwise a new account is made with `name` and' +
    ' `password` and signed in. A used, withdrawn or expired invitation is 410.',
} as const;

import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { readCookie } from '../../lib/cookies.ts';
import { envelope, errors, idParams, ok } from '../../lib/http.ts';
import { clientOf, projectOf, SESSION_COOKIE } from '../../plugins/auth.ts';
import {
  checkSignInOrigin,
  findSession,
  memberProjectAccess,
  membersOf,
  removeMember,
  setMemberRole,
  setSessionCookie,
} from '../accounts/index.ts';
import {
  acceptInviteBody,
  createdInviteSchema,
  createInviteBody,
  inviteDetailsSchema,
  inviteSchema,
  inviteTokenBody,
  memberSchema,
  teamRouteDocs,
  updateMemberBody,
  userParams,
} from './team.schemas.ts';
import * as service from './team.service.ts';

function acting(request: FastifyRequest) {
  const member = request.auth!.member!;
  return { userId: member.user.id, role: member.role };
}

/**
 * /team: a project's members and invitations (signed-in people only: keys never act on people); accepting an invite.
 */
export function teamRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Team'];
    const member = { auth: 'member' } as const;

    app.get(
      '/team',
      {
        config: { ...member, role: 'viewer' },
        schema: {
          tags,
          summary: "List the project's members",
          operationId: 'listTeam',
          response: { 200: envelope(z.array(memberSchema)), ...errors() },
        },
      },
      async (request) => ok(await membersOf(ctx.db, projectOf(request))),
    );

    app.patch(
      '/team/:userId',
      {
        config: { ...member, role: 'admin' },
        schema: {
          tags,
          summary: "Change a member's role",
          operationId: 'updateTeamMember',
          description: teamRouteDocs.updateTeamMember,
          params: userParams,
          body: updateMemberBody,
          response: { 200: envelope(memberSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await setMemberRole(ctx.db, {
            projectId: projectOf(request),
            acting: acting(request),
            userId: request.params.userId,
            role: request.body.role,
          }),
        ),
    );

    app.delete(
      '/team/:userId',
      {
        // Any member may leave (their own id); removing someone else is for owners and admins (checked with the
        // target).
        config: { ...member, role: 'viewer' },
        schema: {
          tags,
          summary: 'Remove a member, or leave',
          operationId: 'removeTeamMember',
          description: teamRouteDocs.removeTeamMember,
          params: userParams,
          response: { 200: envelope(z.object({ userId: z.string(), removed: z.literal(true) })), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await removeMember(ctx.db, {
            projectId: projectOf(request),
            acting: acting(request),
            userId: request.params.userId,
          }),
        ),
    );

    app.get(
      '/team/invites',
      {
        config: { ...member, role: 'admin' },
        schema: {
          tags,
          summary: 'List open invitations',
          operationId: 'listInvites',
          response: { 200: envelope(z.array(inviteSchema)), ...errors() },
        },
      },
      async (request) => ok(await service.listInvites({ ctx, projectId: projectOf(request) })),
    );

    app.post(
      '/team/invites',
      {
        config: { ...member, role: 'admin' },
        schema: {
          tags,
          summary: 'Invite someone',
          operationId: 'createInvite',
          description: teamRouteDocs.createInvite,
          body: createInviteBody,
          response: { 201: envelope(createdInviteSchema), ...errors() },
        },
      },
      async (request, reply) => {
        const projectId = projectOf(request);
        const { user, role } = request.auth!.member!;
        const project = await memberProjectAccess(ctx.db, projectId, user.id);
        reply.code(201);
        return ok(
          await service.createInvite({
            ctx,
            projectId,
            projectName: project?.name ?? '',
            inviter: { userId: user.id, email: user.email, name: user.name, role },
            ...request.body,
          }),
        );
      },
    );

    app.delete(
      '/team/invites/:id',
      {
        config: { ...member, role: 'admin' },
        schema: {
          tags,
          summary: 'Withdraw an invitation',
          operationId: 'revokeInvite',
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), revoked: z.literal(true) })), ...errors(404) },
        },
      },
      async (request) => ok(await service.revokeInvite({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/auth/invite-details',
      {
        config: { auth: 'none' },
        schema: {
          tags,
          summary: 'What an invitation is for',
          operationId: 'getInviteDetails',
          body: inviteTokenBody,
          response: { 200: envelope(inviteDetailsSchema), ...errors(410) },
        },
      },
      async (request) => ok(await service.inviteDetails({ ctx, token: request.body.token })),
    );

    app.post(
      '/auth/accept-invite',
      {
        config: { auth: 'none' },
        schema: {
          tags,
          summary: 'Accept an invitation',
          operationId: 'acceptInvite',
          description: teamRouteDocs.acceptInvite,
          body: acceptInviteBody,
          response: {
            200: envelope(z.object({ projectId: z.string(), csrfToken: z.string().nullable() })),
            ...errors(403, 409, 410),
          },
        },
      },
      async (request, reply) => {
        checkSignInOrigin(ctx, request);
        const cookie = readCookie(request.headers.cookie, SESSION_COOKIE);
        const signedIn = cookie ? await findSession(ctx, cookie) : null;
        const result = await service.acceptInvite({
          ctx,
          ...request.body,
          signedInUserId: signedIn?.user.id ?? null,
          client: clientOf(request),
        });
        if (result.signIn) setSessionCookie(ctx, reply, result.signIn.session);
        return ok({
          projectId: result.projectId,
          csrfToken: result.signIn?.session.csrfToken ?? signedIn?.csrfToken ?? null,
        });
      },
    );
  };
}

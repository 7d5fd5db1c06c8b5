// A project's team: its members with their roles, and invitations (signed-in people only).
import type { Api } from '../../shared/api/client.ts';
import type { Body } from '../../shared/api/operations.ts';

export const listMembers = (api: Api) => api.get('/team');

export const setMemberRole = (api: Api, userId: string, role: Body<'/team/{userId}', 'patch'>['role']) =>
  api.patch('/team/{userId}', { path: { userId }, body: { role } });

/** Removes a member; a member removing themselves leaves the project. */
export const removeMember = (api: Api, userId: string) => api.delete('/team/{userId}', { path: { userId } });

export const listInvites = (api: Api) => api.get('/team/invites');

/** A new invitation; the answer holds its link (shown to the inviter: the instance may not be able to mail it). */
export const createInvite = (api: Api, body: Body<'/team/invites', 'post'>) => api.post('/team/invites', { body });

export const revokeInvite = (api: Api, id: string) => api.delete('/team/invites/{id}', { path: { id } });

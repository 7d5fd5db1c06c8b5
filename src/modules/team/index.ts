// The front door of the team module: what single sign-on needs of invitations.
export { openInvitesOf } from './team.service.ts';

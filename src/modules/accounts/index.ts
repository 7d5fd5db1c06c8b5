// The front door of the accounts module: the app's session lookup, the CLI's user commands, and what the team
// module needs of users, memberships and sessions.
export { checkSignInOrigin, setSessionCookie } from './accounts.routes.ts';
export {
  createUserWithLink,
  ensureSetupToken,
  findSession,
  resetLinkFor,
  sessionView,
  signInVerified,
  userView,
  type Client,
} from './accounts.service.ts';
export { checkPasswordRules, hashPassword } from './accounts.passwords.ts';
export { sendSystemEmail, systemSenderProblem } from './accounts.mail.ts';
export {
  membersOf,
  memberProjectAccess,
  removeMember,
  setMemberRole,
  addMember,
  findUserByEmail,
  createUser,
} from './accounts.members.ts';

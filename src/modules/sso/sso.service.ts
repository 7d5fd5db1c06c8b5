// Who single sign-on lets in. The issuer proved the person holds the address (email_verified); then: the account
// with that address signs in; an address without an account but with open invitations gets an account (no password)
// and joins their projects; failing both, an address of OIDC_ALLOWED_DOMAINS gets an account and joins the project of
// OIDC_AUTO_JOIN with its role. Anyone else is refused, and nothing is kept of them but the audit entry.
import { domainOf } from '../../lib/address-domain.ts';
import { domainToASCII } from 'node:url';
import type { AppContext } from '../../context.types.ts';
import { AppError } from '../../lib/errors.ts';
import { addMember, createUser, findUserByEmail, signInVerified, type Client } from '../accounts/index.ts';
import { recordAudit } from '../audit/index.ts';
import { getProject } from '../projects/index.ts';
import { openInvitesOf } from '../team/index.ts';
import type { Identity } from './sso.issuer.ts';
import { Refusal } from './sso.pages.ts';

const METHOD = 'sso';

/** A refused sign-in in the audit log, under the address the issuer gave. */
async function recordRefusal(ctx: AppContext, identity: Identity, reason: string): Promise<void> {
  await ctx.db.transaction((tx) =>
    recordAudit(tx, {
      action: 'user.sign_in_failed',
      resourceType: 'user',
      actor: { type: 'user', id: null, label: identity.email },
      changes: { method: [null, METHOD], reason: [null, reason] },
    }),
  );
}

/** The project and role OIDC_AUTO_JOIN gives an address, when its domain is one of OIDC_ALLOWED_DOMAINS. */
async function autoJoinFor(ctx: AppContext, email: string) {
  const oidc = ctx.config.oidc;
  if (!oidc?.autoJoin) return null;
  const domain = domainOf(email);
  // Stored addresses have their domain in its ASCII (punycode) form; the setting may name it in Unicode.
  if (!oidc.allowedDomains.some((allowed) => (domainToASCII(allowed) || allowed) === domain)) return null;
  try {
    await getProject({ db: ctx.db, id: oidc.autoJoin.projectId });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
    const projectId = oidc.autoJoin.projectId;
    ctx.logger.error({ projectId }, 'single sign-on: OIDC_AUTO_JOIN names a project that does not exist');
    return null;
  }
  return oidc.autoJoin;
}

/**
 * Signs in the person the issuer names (a new session, recorded as `user.signed_in` with method sso), making their
 * account first when their invitations or OIDC_AUTO_JOIN let them in; a Refusal otherwise.
 */
export async function signInWithIdentity(opts: { ctx: AppContext; identity: Identity; client: Client }) {
  const { ctx, identity, client } = opts;
  if (!identity.emailVerified) {
    await recordRefusal(ctx, identity, 'email not verified');
    throw new Refusal('unverified', { email: identity.email });
  }
  const existing = await findUserByEmail(ctx.db, identity.email);
  if (existing) return ctx.db.transaction((tx) => signInVerified({ db: tx, user: existing, method: METHOD, client }));
  const autoJoin = await autoJoinFor(ctx, identity.email);
  try {
    const signedIn = await ctx.db.transaction(async (tx) => {
      const name = identity.name ?? identity.email.slice(0, identity.email.lastIndexOf('@'));
      const user = await createUser(tx, { email: identity.email, name, passwordHash: null });
      // Made at the same moment by another sign-in: that account signs in below.
      if (!user) return null;
      // The invitations are accepted in this transaction (savepoints), so a refusal leaves no account behind.
      const joined = await openInvitesOf({ ctx: { ...ctx, db: tx }, email: identity.email, userId: user.id });
      if (joined.length === 0) {
        if (!autoJoin) throw new Refusal('no-account', { email: identity.email });
        await addMember(tx, { projectId: autoJoin.projectId, userId: user.id, role: autoJoin.role });
      }
      return signInVerified({ db: tx, user, method: METHOD, client });
    });
    if (signedIn) return signedIn;
  } catch (error) {
    if (error instanceof Refusal) await recordRefusal(ctx, identity, 'no account or invitation');
    throw error;
  }
  const made = await findUserByEmail(ctx.db, identity.email);
  if (!made) throw new Refusal('no-account', { email: identity.email });
  return ctx.db.transaction((tx) => signInVerified({ db: tx, user: made, method: METHOD, client }));
}

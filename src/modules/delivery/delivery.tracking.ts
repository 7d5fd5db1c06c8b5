import type { AppContext } from '../../context.ts';
import { isId } from '../../lib/ids.ts';
import { decodeClickToken, decodeOpenToken, decodeUnsubscribeToken } from '../../mail/tracking.ts';
import { findContact } from '../contacts/index.ts';
import { updateContact } from '../contacts/index.ts';
import { recordClick, recordOpen, recordUnsubscribe } from './delivery.repo.ts';
import { emitEmailEvents } from './delivery.webhooks.ts';
import { recordEvents } from '../events/index.ts';

/** Counts an open of a signed pixel; unknown or forged tokens are ignored (the pixel is the same). */
export async function trackOpen(ctx: AppContext, token: string): Promise<void> {
  const claims = decodeOpenToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.emailId)) return;
  await ctx.db.transaction(async (tx) => {
    const email = await recordOpen(tx, claims.emailId);
    if (email?.contactId) {
      await recordEvents({ db: tx, projectId: email.projectId, events: [{ contactId: email.contactId, name: 'email.opened', data: { emailId: email.id, first: email.opens === 1 } }] });
    }
    if (email) await emitEmailEvents(tx, [{ email, type: 'email.opened', details: { first: email.opens === 1 } }]);
  });
}

/** Resolves a signed click link to its destination and counts it; null for a forged or broken token. */
export async function trackClick(ctx: AppContext, token: string): Promise<string | null> {
  const claims = decodeClickToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.emailId) || !/^https?:\/\//i.test(claims.url)) return null;
  await ctx.db.transaction(async (tx) => {
    const email = await recordClick(tx, claims.emailId);
    if (email?.contactId) {
      await recordEvents({ db: tx, projectId: email.projectId, events: [{ contactId: email.contactId, name: 'email.clicked', data: { emailId: email.id, url: claims.url } }] });
    }
    if (email) await emitEmailEvents(tx, [{ email, type: 'email.clicked', details: { url: claims.url } }]);
  });
  return claims.url;
}

/** Who an unsubscribe token names (for the confirmation page); null when the token is not ours. */
export async function unsubscribeTarget(ctx: AppContext, token: string): Promise<{ email: string | null } | null> {
  const claims = decodeUnsubscribeToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.projectId) || !isId(claims.contactId)) return null;
  const contact = await findContact(ctx.db, claims.projectId, claims.contactId);
  return { email: contact?.email ?? null };
}

/** One-click unsubscribe (RFC 8058): takes effect before the response; repeating it changes nothing. */
export async function unsubscribe(ctx: AppContext, token: string): Promise<boolean> {
  const claims = decodeUnsubscribeToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.projectId) || !isId(claims.contactId)) return false;
  await ctx.db.transaction(async (tx) => {
    const contact = await findContact(tx, claims.projectId, claims.contactId);
    if (!contact) return;
    if (contact.subscribed) await updateContact({ db: tx, projectId: claims.projectId, id: contact.id, subscribed: false });
    if (claims.emailId && isId(claims.emailId)) await recordUnsubscribe(tx, claims.emailId);
  });
  return true;
}

import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { isId } from '../../lib/ids.ts';
import { decodeClickToken, decodeOpenToken, decodeUnsubscribeToken, redirectTarget } from '../../mail/links.ts';
import { findContact, recordHumanActivity, updateContact } from '../contacts/index.ts';
import { recipientSenderName } from '../projects/index.ts';
import { recordEvents } from '../events/index.ts';
import {
  emitEmailEvents,
  findSentAt,
  linksOfEmail,
  recordClick,
  recordLinkClick,
  recordEmailStep,
  recordOpen,
  type Engagement,
} from '../emails/index.ts';
import { classifyClick, classifyOpen, type EngagementRequest, type MachineReason } from '../../mail/engagement.ts';

/** The email's contact, when it still exists (a deleted contact's mail can still be opened: no event then). */
async function contactOf(tx: Executor, email: { projectId: string; contactId: string | null }): Promise<string | null> {
  if (!email.contactId) return null;
  return (await findContact({ db: tx, projectId: email.projectId, id: email.contactId }))?.id ?? null;
}

/** What the tracking routes know of a request: enough to tell a person from a machine (mail/engagement.ts). */
export type TrackingRequest = Pick<EngagementRequest, 'method' | 'ip' | 'userAgent'>;

/**
 * The events of an open or click: the email's first one (a person's or a machine's, `data.machine` says), and the
 * first person's when machines came first, so a filter or workflow on human activity sees it. Later ones only count.
 */
async function recordEngagement(
  tx: Executor,
  seen: Engagement,
  type: 'email.opened' | 'email.clicked',
  machine: MachineReason | null,
  details: Record<string, unknown>,
): Promise<void> {
  const human = machine === null;
  const first = !seen.before.any;
  const { email } = seen;
  // Engagement counts people only: a machine's open or click leaves the contact's figures as they are.
  if (human && email.contactId)
    await recordHumanActivity({
      db: tx,
      contactId: email.contactId,
      kind: type === 'email.opened' ? 'open' : 'click',
      at: new Date(),
      counted: !seen.before.human,
    });
  if (!first && !(human && !seen.before.human)) return;
  const data = { ...details, first, machine: !human };
  await recordEmailStep(tx, email, type === 'email.opened' ? 'opened' : 'clicked', {
    ...details,
    human,
    ...(machine ? { machineReason: machine } : {}),
  });
  if (await contactOf(tx, email)) {
    await recordEvents({
      db: tx,
      projectId: email.projectId,
      events: [{ contactId: email.contactId!, name: type, data: { emailId: email.id, ...data } }],
    });
  }
  await emitEmailEvents(tx, [{ email, type, details: data }]);
}

/**
 * Counts an open of a signed pixel; unknown or forged tokens are ignored (the pixel is the same). Machine opens
 * (Apple's prefetch, proxies, scanners) count apart from people's; see recordEngagement for the events.
 */
export async function trackOpen(ctx: AppContext, token: string, request: TrackingRequest): Promise<void> {
  const claims = decodeOpenToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.emailId)) return;
  const machine = classifyOpen({ ...request, sentAt: null });
  await ctx.db.transaction(async (tx) => {
    const seen = await recordOpen(tx, claims.emailId, machine === null);
    if (seen) await recordEngagement(tx, seen, 'email.opened', machine, {});
  });
}

/**
 * The destination a click token names: the link of the email's own body by index (or, old tokens, the URL),
 * as redirectTarget serialises it; null when no safe http(s) URL can be made of it.
 */
async function clickDestination(ctx: AppContext, token: string): Promise<{ emailId: string; url: string } | null> {
  const claims = decodeClickToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.emailId)) return null;
  if ('url' in claims) return claims;
  const link = (await linksOfEmail(ctx, claims.emailId))?.[claims.index];
  const url = link === undefined || link === null ? null : redirectTarget(link);
  // A body that already held our own links (never stored so, but cheap to refuse) must not loop.
  if (!url || url.startsWith(`${ctx.config.publicUrl}/t/`)) return null;
  return { emailId: claims.emailId, url };
}

/**
 * Resolves a signed click link to its destination and counts it; null (nothing counted) for a forged or
 * broken token or a link no redirect can be made to. Every click counts (on the email, and per link for a
 * campaign's link report), a machine's apart from a person's. Throws a 503 AppError while click rendering
 * is saturated (delivery.links.clicks.ts).
 */
export async function trackClick(ctx: AppContext, token: string, request: TrackingRequest): Promise<string | null> {
  const target = await clickDestination(ctx, token);
  if (!target) return null;
  await ctx.db.transaction(async (tx) => {
    const sent = await findSentAt(tx, target.emailId);
    if (!sent) return;
    const machine = classifyClick({ ...request, sentAt: sent.sentAt });
    const human = machine === null;
    const seen = await recordClick(tx, target.emailId, human);
    if (!seen) return;
    const { email } = seen;
    if (email.sourceType === 'CAMPAIGN' && email.sourceId) {
      await recordLinkClick(tx, {
        emailId: email.id,
        projectId: email.projectId,
        campaignId: email.sourceId,
        url: target.url,
        human,
      });
    }
    await recordEngagement(tx, seen, 'email.clicked', machine, { url: target.url });
  });
  return target.url;
}

/**
 * What the pages of an unsubscribe link show: who it names (its address and language, null once the contact is
 * deleted) and who the mail came from.
 */
export interface UnsubscribeTarget {
  email: string | null;
  /** The contact's language, which the pages speak. */
  locale: string | null;
  /** The project's name; null when it cannot be read. */
  sender: string | null;
}

/** Who an unsubscribe token names (for the confirmation page); null when the token is not ours. */
export async function unsubscribeTarget(ctx: AppContext, token: string): Promise<UnsubscribeTarget | null> {
  const claims = decodeUnsubscribeToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.projectId) || !isId(claims.contactId)) return null;
  const contact = await findContact({ db: ctx.db, projectId: claims.projectId, id: claims.contactId });
  return {
    email: contact?.email ?? null,
    locale: contact?.locale ?? null,
    sender: await recipientSenderName({ db: ctx.db, projectId: claims.projectId }),
  };
}

/**
 * Subscribes the contact of an unsubscribe link again (the button on the page after unsubscribing, a POST:
 * a link scanner's GET never changes anything). Null for a token that is not valid.
 */
export async function resubscribe(
  ctx: AppContext,
  token: string,
): Promise<Pick<UnsubscribeTarget, 'locale' | 'sender'> | null> {
  const claims = decodeUnsubscribeToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.projectId) || !isId(claims.contactId)) return null;
  const contact = await findContact({ db: ctx.db, projectId: claims.projectId, id: claims.contactId });
  if (contact && !contact.subscribed)
    await updateContact({
      db: ctx.db,
      projectId: claims.projectId,
      id: contact.id,
      subscribed: true,
      consent: { type: 'unsubscribe_link', id: claims.emailId ?? null },
    });
  return {
    locale: contact?.locale ?? null,
    sender: await recipientSenderName({ db: ctx.db, projectId: claims.projectId }),
  };
}

/**
 * Unsubscribes the contact of an unsubscribe link: a mail client's one-click POST (RFC 8058), or the button of the
 * link's page (`via` says which, for the consent ledger). Takes effect before the response; repeating it writes
 * nothing; the email's campaign counts it. Null for a bad token.
 */
export async function unsubscribe(
  ctx: AppContext,
  token: string,
  via: 'one_click' | 'unsubscribe_link',
): Promise<Pick<UnsubscribeTarget, 'locale' | 'sender'> | null> {
  const claims = decodeUnsubscribeToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.projectId) || !isId(claims.contactId)) return null;
  const locale = await ctx.db.transaction(async (tx) => {
    const contact = await findContact({ db: tx, projectId: claims.projectId, id: claims.contactId });
    if (!contact) return null;
    const emailId = claims.emailId && isId(claims.emailId) ? claims.emailId : null;
    if (contact.subscribed)
      await updateContact({
        db: tx,
        projectId: claims.projectId,
        id: contact.id,
        subscribed: false,
        consent: { type: via, id: emailId, emailId },
      });
    return contact.locale;
  });
  return { locale, sender: await recipientSenderName({ db: ctx.db, projectId: claims.projectId }) };
}

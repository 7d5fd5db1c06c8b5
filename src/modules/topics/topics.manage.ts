// The preference centre behind {{manageUrl}}: the recipient's topics and subscription, reached by the signed token
// of the message's unsubscribe link (no login). Reading never changes anything; saving is a POST of the page's form.
import type { AppContext } from '../../context.types.ts';
import { isId } from '../../lib/ids.ts';
import { decodeUnsubscribeToken } from '../../mail/links.ts';
import {
  activeSnooze,
  findContact,
  setContactSnooze,
  SNOOZE_CHOICES,
  updateContact,
  type ConsentSource,
  type ContactRow,
  type SnoozeChoice,
} from '../contacts/index.ts';
import { recipientSenderName } from '../projects/index.ts';
import { getProjectSettings } from '../settings/index.ts';
import * as repo from './topics.repo.ts';
import { writeChoices } from './topics.service.ts';

export interface ManageState {
  /** Null when the project cannot be read (the page names no sender then). */
  projectName: string | null;
  contact: ContactRow;
  /** Marketing mail is paused until then; null when it is not. */
  snoozedUntil: Date | null;
  /** The project's time zone, in which the page writes dates. */
  timezone: string;
  topics: { id: string; name: string; description: string | null; subscribed: boolean }[];
}

/** The contact a manage token names, with the project's name; null for a forged token or a deleted contact. */
async function contactOfToken(
  ctx: AppContext,
  token: string,
): Promise<{ contact: ContactRow; projectName: string | null; emailId: string | null } | null> {
  const claims = decodeUnsubscribeToken(ctx.secrets.appSecret, token);
  if (!claims || !isId(claims.projectId) || !isId(claims.contactId)) return null;
  const contact = await findContact({ db: ctx.db, projectId: claims.projectId, id: claims.contactId });
  if (!contact) return null;
  const emailId = claims.emailId && isId(claims.emailId) ? claims.emailId : null;
  return { contact, projectName: await recipientSenderName({ db: ctx.db, projectId: claims.projectId }), emailId };
}

/** What the preference page shows: the project's topics with the contact's choices (or the defaults). */
export async function readPreferences(ctx: AppContext, token: string): Promise<ManageState | null> {
  const found = await contactOfToken(ctx, token);
  if (!found) return null;
  return readState(ctx, found);
}

async function readState(
  ctx: AppContext,
  found: { contact: ContactRow; projectName: string | null },
): Promise<ManageState> {
  const [all, choices, settings] = await Promise.all([
    repo.allTopics(ctx.db, found.contact.projectId),
    repo.contactChoices(ctx.db, found.contact.id),
    getProjectSettings({ db: ctx.db, projectId: found.contact.projectId }),
  ]);
  return {
    contact: found.contact,
    projectName: found.projectName,
    snoozedUntil: activeSnooze(found.contact.snoozedUntil),
    timezone: settings.timezone,
    topics: all.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      subscribed: choices.get(t.id) ?? t.defaultSubscription === 'OPT_OUT',
    })),
  };
}

export type ManageAction =
  | { type: 'save'; topicIds: string[] }
  | { type: 'unsubscribe' }
  | { type: 'resubscribe' }
  | { type: 'snooze'; choice: SnoozeChoice }
  | { type: 'resume' };

/**
 * Applies the page's form: `save` records a choice for every topic of the project (checked = in) and, for a contact
 * that was unsubscribed, nothing more; `unsubscribe` unsubscribes from everything; `resubscribe` subscribes again.
 * Subscription changes go through the contacts module (contact.subscribed / contact.unsubscribed events, webhooks);
 * changed topic choices are `contact.updated`. `snooze` pauses marketing mail for the chosen time, `resume` ends a
 * pause, through the contacts module's one snooze function. Every change is in the consent ledger with the preference
 * centre as its source.
 */
export async function savePreferences(
  ctx: AppContext,
  token: string,
  action: ManageAction,
): Promise<ManageState | null> {
  const found = await contactOfToken(ctx, token);
  if (!found) return null;
  const { contact } = found;
  // The email whose link opened the page: an unsubscribe here counts in its campaign, as its unsubscribe link would.
  const consent: ConsentSource = { type: 'preference_centre', id: found.emailId, emailId: found.emailId };
  const { projectId, id } = contact;
  if (action.type === 'unsubscribe' && contact.subscribed)
    await updateContact({ db: ctx.db, projectId, id, subscribed: false, consent });
  if (action.type === 'resubscribe' && !contact.subscribed)
    await updateContact({ db: ctx.db, projectId, id, subscribed: true, consent });
  if (action.type === 'snooze' || action.type === 'resume') {
    const until = action.type === 'snooze' ? new Date(Date.now() + SNOOZE_CHOICES[action.choice] * 86_400_000) : null;
    await setContactSnooze({ db: ctx.db, projectId, id, until, consent });
  }
  if (action.type === 'save') {
    const chosen = new Set(action.topicIds.map((topicId) => topicId.toLowerCase()));
    await ctx.db.transaction(async (tx) => {
      const all = await repo.allTopics(tx, projectId);
      const choices = all.map((t) => ({ topicId: t.id, subscribed: chosen.has(t.id) }));
      await writeChoices({ db: tx, projectId, contactId: id, choices, consent });
    });
  }
  const fresh = await findContact({ db: ctx.db, projectId, id });
  return fresh ? readState(ctx, { ...found, contact: fresh }) : null;
}

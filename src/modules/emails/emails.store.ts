// The emails store as the sending engine uses it: every read and write of the queue it needs, bound to one
// database, with the caches of what a send reads again and again (shared bodies, attachment sets, the last
// submitted message). The engine is handed this object; it never touches the emails tables itself.
import type { Db } from '../../db/client.ts';
import type { ComposeAttachment } from '../../mail/compose.ts';
import type { DeliveryError } from '../../mail/transport.ts';
import { AttachmentCache } from './emails.attachments.ts';
import { claimEmails, type ClaimedEmail } from './emails.claim.ts';
import { ContentCache, renderInputOf, type MessageLinkUrls } from './emails.content.ts';
import {
  findAttachmentBytes,
  findMime,
  findMimeBytes,
  giveBackClaimedEmails,
  holdClaimedEmails,
  renewEmailLeases,
  type ClaimOptions,
  type EmailRow,
} from './emails.repo.ts';
import {
  recordSent,
  settleBounced,
  settleAwaitingTransport,
  settleDeferred,
  settleFailed,
  settleIfCampaignCancelled,
  settleSuppressed,
  type SentItem,
} from './emails.settle.ts';
import type { HoldReason } from './emails.types.ts';
import type { AttemptRecord } from './emails.timeline.ts';

export interface EmailStore {
  /** Claims due emails under this owner's lease (they become SENDING). */
  claim(opts: ClaimOptions): Promise<ClaimedEmail[]>;
  renewLeases(owner: string, ids: string[], leaseSeconds: number): Promise<void>;
  /** Gives claimed emails back, held for `reason` (QUEUED, looked at again after `until` seconds, or at `until`). */
  hold(owner: string, ids: string[], reason: HoldReason, until: number | Date): Promise<void>;
  /** Gives claimed emails back untouched. */
  release(owner: string, ids: string[]): Promise<void>;
  recordSent(owner: string, items: SentItem[]): Promise<number>;
  settleFailed(
    owner: string,
    email: EmailRow,
    lastError: string,
    statusReason?: string,
    attempts?: AttemptRecord[],
  ): Promise<void>;
  settleDeferred(
    owner: string,
    email: EmailRow,
    lastError: string,
    retryAt: Date,
    attempts?: AttemptRecord[],
  ): Promise<void>;
  /** Every transport of its route is down: DEFERRED until `retryAt`, without using up an attempt. */
  settleAwaitingTransport(owner: string, email: EmailRow, lastError: string, retryAt: Date): Promise<void>;
  settleBounced(owner: string, email: EmailRow, error: DeliveryError, attempts?: AttemptRecord[]): Promise<void>;
  settleSuppressed(owner: string, email: EmailRow, reason: 'SUPPRESSED' | 'UNSUBSCRIBED' | 'SNOOZED'): Promise<void>;
  /** Settles a held campaign email whose campaign was paused or cancelled since the claim; true when it did. */
  settleIfCampaignHalted(owner: string, email: EmailRow): Promise<boolean>;
  attachmentBytes(setId: string): Promise<number>;
  mimeBytes(mimeId: string): Promise<number>;
  /** A submitted message's bytes (the relay stores them once for all its recipients). */
  mime(mimeId: string): Promise<Buffer>;
  attachments(setId: string): Promise<ComposeAttachment[]>;
  /** What the renderer needs for an email whose body is rendered at delivery; undefined when the row holds it. */
  renderInput(
    email: Pick<EmailRow, 'contentId' | 'variables'>,
    links: MessageLinkUrls,
  ): ReturnType<typeof renderInputOf>;
}

export function createEmailStore(db: Db): EmailStore {
  const contents = new ContentCache();
  const attachmentSets = new AttachmentCache();
  // A submitted message goes to its recipients one after another: the last one read serves the next copies.
  let lastMime: { id: string; content: Promise<Buffer | null> } | null = null;
  return {
    claim: (opts) => claimEmails(db, opts),
    renewLeases: (owner, ids, leaseSeconds) => renewEmailLeases(db, owner, ids, leaseSeconds),
    hold: (owner, ids, reason, until) => holdClaimedEmails(db, owner, ids, reason, until),
    release: (owner, ids) => giveBackClaimedEmails(db, owner, ids),
    recordSent: (owner, items) => recordSent(db, owner, items),
    settleFailed: (owner, email, lastError, statusReason, attempts) =>
      settleFailed(db, owner, email, lastError, statusReason, attempts),
    settleDeferred: (owner, email, lastError, retryAt, attempts) =>
      settleDeferred(db, owner, email, lastError, retryAt, attempts),
    settleAwaitingTransport: (owner, email, lastError, retryAt) =>
      settleAwaitingTransport(db, owner, email, lastError, retryAt),
    settleBounced: (owner, email, error, attempts) => settleBounced(db, owner, email, error, attempts),
    settleSuppressed: (owner, email, reason) => settleSuppressed(db, owner, email, reason),
    settleIfCampaignHalted: (owner, email) => settleIfCampaignCancelled(db, owner, email),
    attachmentBytes: (setId) => findAttachmentBytes(db, setId),
    mimeBytes: (mimeId) => findMimeBytes(db, mimeId),
    async mime(mimeId) {
      if (lastMime?.id !== mimeId) {
        const content = findMime(db, mimeId);
        lastMime = { id: mimeId, content };
        content.catch(() => {
          if (lastMime?.content === content) lastMime = null;
        });
      }
      const content = await lastMime.content;
      if (!content) throw new Error(`submitted message ${mimeId} is missing`);
      return content;
    },
    attachments: (setId) => attachmentSets.of(db, setId),
    renderInput: (email, links) => renderInputOf(db, email, links, contents),
  };
}

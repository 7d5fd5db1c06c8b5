// Mail received for receiving domains: who it is for, then one record per project, stored with its contact, event
// and webhook in one transaction once the whole message is in. The message is read and authenticated on a receive
// thread; its bytes are stored in pieces.
import { domainOf } from '../../lib/address-domain.ts';
import type { AppContext } from '../../context.types.ts';
import type { Tx } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { normalizeEmail, parseAddress } from '../../lib/email-address.ts';
import {
  createReceivedReader,
  type AuthVerdicts,
  type ParsedMessage,
  type ReceivedReader,
} from '../../mail/receive-pool/index.ts';
import type { Mailbox, ReceivedMessage } from '../../net/smtp-listener.ts';
import { smtpError } from '../../net/smtp-connections.ts';
import { upsertContacts } from '../contacts/index.ts';
import { findRepliedEmailId } from '../emails/index.ts';
import { findReceivingDomains } from '../domains/index.ts';
import { recordEvents } from '../events/index.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import { insertInbound, storedBytes, type NewAttachment } from './inbound.repo.ts';

/** Time SPF, DKIM and DMARC get (DNS included) before their verdicts are `temperror`. */
const AUTH_DEADLINE_MS = 10_000;
/** Time a receive thread gets for one message, reading and authentication together; past it the thread ends. */
const READ_DEADLINE_MS = 60_000;
/**
 * Receive threads. One keeps up with the listener (measured: ~110 messages of 20 KB a second on PostgreSQL, the
 * database being the limit) and holds the least memory; a second raised the peak by ~150 MB for nothing.
 */
const RECEIVE_THREADS = 1;

/** The envelope recipients by the project whose receiving domain they are at. */
async function recipientsByProject(ctx: AppContext, recipients: string[]): Promise<Map<string, string[]>> {
  const names = [...new Set(recipients.map(domainOf).filter((d) => d !== ''))];
  const owners = new Map((await findReceivingDomains({ db: ctx.db, names })).map((d) => [d.domain, d.projectId]));
  const byProject = new Map<string, string[]>();
  for (const address of recipients) {
    const projectId = owners.get(domainOf(address));
    if (projectId) byProject.set(projectId, [...(byProject.get(projectId) ?? []), normalizeEmail(address)]);
  }
  return byProject;
}

/**
 * Header pairs as the record's `{name: value}`. Built by JSON.parse, which makes every name an own property:
 * assigning would call the setters of `__proto__` and friends instead of storing them.
 */
function headerObject(pairs: [string, string][]): Record<string, string> {
  return JSON.parse(
    `{${pairs.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`,
  ) as Record<string, string>;
}

const asBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Stores one project's record with its contact, `email.received` event and webhook, in the caller's transaction. */
async function storeForProject(
  tx: Tx,
  opts: {
    projectId: string;
    recipients: string[];
    parsed: ParsedMessage;
    authentication: AuthVerdicts;
    message: ReceivedMessage;
    receivedAt: Date;
  },
) {
  const { parsed, projectId } = opts;
  const id = newId();
  const inReplyToEmailId = await findRepliedEmailId({ db: tx, projectId, messageId: parsed.inReplyTo });
  const sender = parseAddress(parsed.from.email);
  const [contact] = sender.ok
    ? await upsertContacts({
        db: tx,
        projectId,
        rows: [{ email: parsed.from.email, defaultSubscribed: false }],
        // A sender is kept unsubscribed: no consent changes.
        consent: { type: 'api' },
      })
    : [];
  const attachments = parsed.attachments.map(
    (a, position) =>
      ({ ...a, inboundId: id, position, id: newId(), content: asBuffer(a.content) }) satisfies NewAttachment & {
        content: Buffer;
      },
  );
  const stored =
    opts.message.size +
    attachments.reduce((n, a) => n + a.size, 0) +
    Buffer.byteLength(parsed.text ?? '') +
    Buffer.byteLength(parsed.html ?? '');
  await insertInbound(tx, {
    message: {
      id,
      projectId,
      fromEmail: parsed.from.email,
      fromName: parsed.from.name,
      recipients: opts.recipients,
      to: parsed.to,
      cc: parsed.cc,
      subject: parsed.subject,
      text: parsed.text,
      html: parsed.html,
      textTruncated: parsed.truncated.text,
      htmlTruncated: parsed.truncated.html,
      headers: headerObject(parsed.headers),
      messageId: parsed.messageId,
      inReplyTo: parsed.inReplyTo,
      references: parsed.references,
      inReplyToEmailId,
      authentication: opts.authentication,
      contactId: contact?.contact.id ?? null,
      size: opts.message.size,
      storedBytes: stored,
      createdAt: opts.receivedAt,
    },
    pieces: opts.message.pieces,
    attachments,
  });
  const data = { inboundId: id, to: opts.recipients, subject: parsed.subject, inReplyToEmailId };
  if (contact)
    await recordEvents({
      db: tx,
      projectId,
      events: [{ contactId: contact.contact.id, name: 'email.received', data }],
    });
  await emitWebhookEvents(tx, [
    {
      projectId,
      type: 'email.received',
      createdAt: opts.receivedAt,
      data: { ...data, from: parsed.from.email, attachments: attachments.length },
    },
  ]);
  return id;
}

/** Reads a message on a receive thread; throws the SMTP answer when it cannot be read. */
export async function readOnThread(
  ctx: AppContext,
  reader: ReceivedReader,
  message: ReceivedMessage,
  opts: { reports?: boolean } = {},
) {
  const task = {
    pieces: message.pieces,
    mailFrom: message.mailFrom,
    remoteAddress: message.remoteAddress,
    helo: message.helo,
    mta: ctx.config.inbound.mxHost,
    dnsServers: ctx.config.dnsServers,
    authDeadlineMs: AUTH_DEADLINE_MS,
    reports: opts.reports,
  };
  const result = await reader.read(task, READ_DEADLINE_MS).catch((error: unknown) => {
    // The thread ran past its deadline or out of memory: the message costs more than any real one, so it is
    // refused for good.
    ctx.logger.warn({ err: error, size: message.size }, 'inbound message could not be read in time or within memory');
    throw smtpError(554, '5.6.0 Message could not be read');
  });
  if (!result.ok) throw smtpError(554, '5.6.0 Message could not be read');
  return result;
}

/**
 * Receives one whole message for `recipients` (all at receiving domains): read and authenticated once, then one
 * record per project, all in one transaction, so a failure stores nothing and the client retries.
 */
export async function receiveInbound(opts: {
  ctx: AppContext;
  message: ReceivedMessage;
  reader: ReceivedReader;
}): Promise<string[]> {
  const { ctx, message } = opts;
  const byProject = await recipientsByProject(ctx, message.recipients);
  if (byProject.size === 0) throw smtpError(550, '5.1.1 No such recipient here');
  const { parsed, authentication } = await readOnThread(ctx, opts.reader, message);
  const receivedAt = new Date();
  return ctx.db.transaction(async (tx) => {
    const ids: string[] = [];
    for (const [projectId, recipients] of byProject)
      ids.push(await storeForProject(tx, { projectId, recipients, parsed, authentication, message, receivedAt }));
    return ids;
  });
}

/** The inbound mailbox: any local part at a verified domain with receiving on, while its project has room. */
export function inboundMailbox(ctx: AppContext): Mailbox {
  const reader = createReceivedReader(RECEIVE_THREADS);
  const log = ctx.logger.child({ component: 'inbound-smtp' });
  const { maxStoredBytes } = ctx.config.inbound;
  return {
    name: 'inbound',
    maxBytes: ctx.config.inbound.maxBytes,
    async accepts(address) {
      const domain = domainOf(address);
      const [found] = domain === '' ? [] : await findReceivingDomains({ db: ctx.db, names: [domain] });
      if (!found) return false;
      if ((await storedBytes(ctx.db, found.projectId)) >= maxStoredBytes) {
        log.info({ projectId: found.projectId, domain }, "inbound message refused: the project's storage is full");
        throw smtpError(452, `4.3.1 Insufficient storage for ${domain}, try again later`);
      }
      return true;
    },
    async deliver(message) {
      const ids = await receiveInbound({ ctx, message, reader });
      log.info({ inboundIds: ids, size: message.size }, 'inbound message received');
    },
    close: () => reader.close(),
  };
}

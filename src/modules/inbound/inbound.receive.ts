// Mail received for receiving domains (CONTRACT §15): who it is for, then one record per project, stored with
// its contact, event and webhook in one transaction once the whole message is in.
import { domainToASCII } from 'node:url';
import type { AppContext } from '../../context.types.ts';
import type { Tx } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { normalizeEmail, parseAddress } from '../../lib/email-address.ts';
import { authenticateMessage, mailauthResolver } from '../../mail/authenticate.ts';
import type { Mailbox, ReceivedMessage } from '../../net/smtp-listener.ts';
import { smtpError } from '../../net/smtp-connections.ts';
import { upsertContacts } from '../contacts/index.ts';
import { findRepliedEmailId } from '../delivery/index.ts';
import { findReceivingDomains } from '../domains/index.ts';
import { recordEvents } from '../events/index.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import { parseInbound, type ParsedInbound } from './inbound.parse.ts';
import { insertInbound, type NewAttachment, type NewInbound } from './inbound.repo.ts';
import type { AuthVerdicts } from '../../mail/authenticate.ts';

/** The domain of an address as domains are stored: lower-case, punycode; null without one. */
function domainOf(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  return domainToASCII(address.slice(at + 1).trim().replace(/\.$/, '').toLowerCase()) || null;
}

/** The envelope recipients by the project whose receiving domain they are at. */
async function recipientsByProject(ctx: AppContext, recipients: string[]): Promise<Map<string, string[]>> {
  const names = [...new Set(recipients.map(domainOf).filter((d): d is string => d !== null))];
  const owners = new Map((await findReceivingDomains({ db: ctx.db, names })).map((d) => [d.domain, d.projectId]));
  const byProject = new Map<string, string[]>();
  for (const address of recipients) {
    const projectId = owners.get(domainOf(address) ?? '');
    if (projectId) byProject.set(projectId, [...(byProject.get(projectId) ?? []), normalizeEmail(address)]);
  }
  return byProject;
}

/** Stores one project's record with its contact, `email.received` event and webhook, in the caller's transaction. */
async function storeForProject(tx: Tx, opts: { projectId: string; recipients: string[]; parsed: ParsedInbound; authentication: AuthVerdicts; raw: Buffer; receivedAt: Date }) {
  const { parsed, projectId } = opts;
  const id = newId();
  const inReplyToEmailId = await findRepliedEmailId({ db: tx, projectId, messageId: parsed.inReplyTo });
  const sender = parseAddress(parsed.from.email);
  const [contact] = sender.ok ? await upsertContacts({ db: tx, projectId, rows: [{ email: parsed.from.email, defaultSubscribed: false }] }) : [];
  const message: NewInbound = {
    id, projectId, fromEmail: parsed.from.email, fromName: parsed.from.name, recipients: opts.recipients, to: parsed.to, cc: parsed.cc,
    subject: parsed.subject, text: parsed.text, html: parsed.html, headers: parsed.headers, messageId: parsed.messageId, inReplyTo: parsed.inReplyTo,
    references: parsed.references, inReplyToEmailId, authentication: opts.authentication, contactId: contact?.contact.id ?? null,
    size: opts.raw.length, createdAt: opts.receivedAt,
  };
  const attachments: NewAttachment[] = parsed.attachments.map((a, position) => ({ inboundId: id, position, id: newId(), ...a }));
  await insertInbound(tx, [{ message, raw: opts.raw, attachments }]);
  const data = { inboundId: id, to: opts.recipients, subject: parsed.subject, inReplyToEmailId };
  if (contact) await recordEvents({ db: tx, projectId, events: [{ contactId: contact.contact.id, name: 'email.received', data }] });
  await emitWebhookEvents(tx, [{ projectId, type: 'email.received', createdAt: opts.receivedAt, data: { ...data, from: parsed.from.email, attachments: attachments.length } }]);
  return id;
}

/**
 * Receives one whole message for `recipients` (all at receiving domains): parsed and authenticated once, then
 * one record per project, all in one transaction, so a failure stores nothing and the client retries.
 */
export async function receiveInbound(opts: { ctx: AppContext; message: ReceivedMessage; resolver: ReturnType<typeof mailauthResolver> }): Promise<string[]> {
  const { ctx, message } = opts;
  const byProject = await recipientsByProject(ctx, message.recipients);
  if (byProject.size === 0) throw smtpError(550, '5.1.1 No such recipient here');
  let parsed: ParsedInbound;
  try {
    parsed = await parseInbound(message.raw, message.mailFrom);
  } catch {
    throw smtpError(554, '5.6.0 Message could not be read');
  }
  const authentication = await authenticateMessage({ raw: message.raw, ip: message.remoteAddress, helo: message.helo, mailFrom: message.mailFrom, mta: ctx.config.inbound.mxHost, resolver: opts.resolver })
    .catch(() => ({ spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' }) as const);
  const receivedAt = new Date();
  return ctx.db.transaction(async (tx) => {
    const ids: string[] = [];
    for (const [projectId, recipients] of byProject) ids.push(await storeForProject(tx, { projectId, recipients, parsed, authentication, raw: message.raw, receivedAt }));
    return ids;
  });
}

/** The inbound mailbox: any local part at a verified domain with receiving on. */
export function inboundMailbox(ctx: AppContext): Mailbox {
  const resolver = mailauthResolver(ctx.config.dnsServers);
  const log = ctx.logger.child({ component: 'inbound-smtp' });
  return {
    name: 'inbound',
    maxBytes: ctx.config.inbound.maxBytes,
    async accepts(address) {
      const domain = domainOf(address);
      return domain !== null && (await findReceivingDomains({ db: ctx.db, names: [domain] })).length > 0;
    },
    async deliver(message) {
      const ids = await receiveInbound({ ctx, message, resolver });
      log.info({ inboundIds: ids, size: message.raw.length }, 'inbound message received');
    },
  };
}

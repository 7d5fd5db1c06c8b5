// The instance's own mail (invites, password resets, set-password links): from SYSTEM_EMAIL_FROM, or
// herald@herald.localhost with the outbox, signed with the key of the project domain that covers the sender, sent
// straight through the instance's transport (outside every project's emails and counts).
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.types.ts';
import { domainOf } from '../../lib/address-domain.ts';
import { composeMessage } from '../../mail/compose.ts';
import { LOCAL_SENDER_DOMAIN, systemSigningKey } from '../domains/index.ts';

/** The address the instance's mail comes from, or null when none is set and the transport is not the outbox. */
export function systemSenderAddress(ctx: AppContext): string | null {
  return ctx.config.systemEmailFrom ?? (ctx.config.mailTransport === 'outbox' ? `herald@${LOCAL_SENDER_DOMAIN}` : null);
}

/** Why the instance cannot send its own mail, or null when it can (checked at start-up and before each). */
export async function systemSenderProblem(ctx: AppContext): Promise<string | null> {
  const from = systemSenderAddress(ctx);
  if (!from)
    return (
      'SYSTEM_EMAIL_FROM is not set: invites answer their link to the inviter, and passwords are reset with ' +
      '`herald users reset-password --email E`'
    );
  if (!(await systemSigningKey({ ctx, from })))
    return (
      `SYSTEM_EMAIL_FROM (${from}) is on no verified domain of any project: ` +
      'verify its domain to mail invites and password resets'
    );
  return null;
}

export interface SystemEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends one message of the instance's; false when no system sender can send it (the caller says what to do instead).
 */
export async function sendSystemEmail(ctx: AppContext, email: SystemEmail): Promise<boolean> {
  const from = systemSenderAddress(ctx);
  const dkim = from ? await systemSigningKey({ ctx, from }) : null;
  if (!from || !dkim) return false;
  const id = randomUUID();
  const raw = await composeMessage({
    from: { email: from, name: 'Herald' },
    to: { email: email.to },
    subject: email.subject,
    html: email.html,
    text: email.text,
    messageId: `<${id}@${domainOf(from)}>`,
    dkim,
  });
  try {
    await ctx.transport.send({ from, to: email.to, raw, emailId: id });
    return true;
  } catch (error) {
    ctx.logger.warn({ err: error, subject: email.subject }, 'the instance could not send its own mail');
    return false;
  }
}

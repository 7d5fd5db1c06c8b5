// An email as it was sent, for every transport: its rendered content, and its complete message. Nothing
// rendered is stored per recipient; both are built again from what is (the email row, its shared content and
// the variables fixed at fan-out, its attachments), with the same code that built the message for the transport.
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, findOr404 } from '../../lib/errors.ts';
import { bodyOf, buildMessage } from '../../mail/compose-pool/index.ts';
import { ComposeError } from '../../mail/compose.ts';
import { mimeBody } from '../../mail/compose-mime.ts';
import { TemplateError } from '../../mail/render.ts';
import { findSigningDomain } from '../domains/index.ts';
import { buildTaskFor } from './sending.message.ts';
import { createEmailStore, ERASED_ADDRESS, findEmailRow, type EmailRow } from '../emails/index.ts';

export const emailSourceSchema = z
  .object({
    id: z.string(),
    source: z.string().meta({ description: 'The complete message (RFC 5322, DKIM-signed)' }),
    rebuilt: z.boolean().meta({
      description:
        'false: the copy the outbox wrote. true: built again from what is stored; the ' +
        'body is the same bytes, the Date header is the handoff time and so the DKIM ' +
        'signature differs',
    }),
  })
  .meta({ id: 'EmailSource' });

export const emailContentSchema = z
  .object({
    id: z.string(),
    subject: z.string(),
    from: z.string(),
    fromName: z.string().nullable(),
    to: z.string(),
    toName: z.string().nullable(),
    replyTo: z.string().nullable(),
    html: z.string().meta({
      description: 'The HTML body as the recipient reads it, before tracking links and the open pixel are added',
    }),
    text: z.string(),
    headers: z.record(z.string(), z.string()).meta({ description: 'Custom headers given on send' }),
  })
  .meta({ id: 'EmailContent' });

type Opts = { ctx: AppContext; projectId: string; id: string };

/**
 * 410 once retention (or the contact's deletion) dropped what the email carried: the record stays, its content cannot
 * be built again.
 */
export function contentKept(email: EmailRow): void {
  if (!email.contentDroppedAt) return;
  if (email.toEmail === ERASED_ADDRESS) {
    throw new AppError(
      'GONE',
      `The content of this email was deleted on ${email.contentDroppedAt.toISOString()}, with its contact`,
      {
        suggestion:
          'Deleting a contact erases its address and personal content from its emails; the ' +
          'record, status and counts stay.',
      },
    );
  }
  throw new AppError(
    'GONE',
    `The content of this email was deleted on ${email.contentDroppedAt.toISOString()}, after the retention period`,
    {
      suggestion:
        'Finished emails keep their bodies and attachments for ' +
        'RETENTION_EMAIL_CONTENT_DAYS days (90 by default); the record, status and events ' +
        'stay.',
    },
  );
}

function unrenderable(error: unknown): never {
  if (error instanceof TemplateError || error instanceof ComposeError) {
    throw new AppError('CONFLICT', `This email cannot be built for its recipient: ${error.message}`, {
      suggestion: 'The email failed before it was sent; its lastError says why.',
    });
  }
  throw error;
}

/** GET /emails/{id}/content: subject, addresses and bodies rendered again from what is stored. */
export async function getEmailContent(opts: Opts): Promise<z.infer<typeof emailContentSchema>> {
  const { ctx } = opts;
  const email = await findOr404('Email', opts.id, () =>
    findEmailRow({ db: ctx.db, projectId: opts.projectId, id: opts.id }),
  );
  contentKept(email);
  const task = await taskOf(ctx, email).catch(unrenderable);
  let body: { subject: string; html: string; text: string };
  try {
    // A message submitted over SMTP is the client's MIME: its bodies are read from it.
    body = task.mime ? await mimeBody(task.mime) : bodyOf(task);
  } catch (error) {
    unrenderable(error);
  }
  return {
    id: email.id,
    subject: body.subject,
    from: email.fromEmail,
    fromName: email.fromName,
    to: email.toEmail,
    toName: email.toName,
    replyTo: email.replyTo,
    html: body.html,
    text: body.text,
    headers: email.headers ?? {},
  };
}

/**
 * GET /emails/{id}/source: the outbox's copy when it has one, otherwise the message built again with the
 * stored Message-ID and MIME boundaries, dated at the handoff (at the email's creation when never handed over).
 */
export async function getEmailSource(opts: Opts): Promise<z.infer<typeof emailSourceSchema>> {
  const { ctx } = opts;
  const email = await findOr404('Email', opts.id, () =>
    findEmailRow({ db: ctx.db, projectId: opts.projectId, id: opts.id }),
  );
  contentKept(email);
  const kept = ctx.transport.readMessage ? await ctx.transport.readMessage(email.id) : null;
  if (kept) return { id: email.id, source: kept.toString('utf8'), rebuilt: false };
  const built = await buildMessage(await taskOf(ctx, email));
  if (!built.ok) unrenderable(new ComposeError(built.error));
  return { id: email.id, source: Buffer.from(built.raw).toString('utf8'), rebuilt: true };
}

async function taskOf(ctx: AppContext, email: EmailRow) {
  const domain = await findSigningDomain({ db: ctx.db, projectId: email.projectId, from: email.fromEmail });
  if (!domain) {
    throw new AppError('NOT_FOUND', `No domain of this project covers the sender ${email.fromEmail} any more`, {
      suggestion: "The message is signed with its sender domain's key; add the domain again to see it.",
    });
  }
  return buildTaskFor(ctx, createEmailStore(ctx.db), email, domain, email.sentAt ?? email.createdAt);
}

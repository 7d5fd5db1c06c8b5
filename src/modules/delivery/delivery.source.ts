import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, findOr404 } from '../../lib/errors.ts';
import { findEmail } from './delivery.repo.ts';

export const emailSourceSchema = z.object({
  id: z.string(),
  source: z.string().meta({ description: 'The complete message (RFC 5322, DKIM-signed) as the transport was given it' }),
}).meta({ id: 'EmailSource' });

/**
 * GET /emails/{id}/source: the raw message of an email of the project, where the transport keeps it
 * (the outbox writes every message to DATA_DIR/outbox). SMTP and SES keep nothing, so there it is a 404.
 */
export async function getEmailSource(opts: { ctx: AppContext; projectId: string; id: string }): Promise<z.infer<typeof emailSourceSchema>> {
  const { ctx } = opts;
  const email = await findOr404('Email', opts.id, () => findEmail(ctx.db, opts.projectId, opts.id));
  if (!ctx.transport.readMessage) {
    throw new AppError('NOT_FOUND', `The ${ctx.transport.name} transport keeps no copy of sent messages`, {
      suggestion: 'Message sources are kept only with MAIL_TRANSPORT=outbox.',
    });
  }
  const raw = await ctx.transport.readMessage(email.id);
  if (!raw) {
    throw new AppError('NOT_FOUND', `No message was written for this email (status ${email.status})`, {
      suggestion: 'The outbox holds a message once the email is SENT.',
    });
  }
  return { id: email.id, source: raw.toString('utf8') };
}

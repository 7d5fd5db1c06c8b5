// SEND_EMAIL: renders the step's template for the contact and hands the email to delivery, in the transaction
// that moves the execution on (so a crash never sends a step's email twice, nor loses it).
import { newId } from '../../lib/ids.ts';
import { templateVariables } from '../../mail/variables.ts';
import { AppError } from '../../lib/errors.ts';
import { queueEmails, unsubscribeUrlFor, type NewEmail } from '../delivery/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { findSuppressed } from '../suppressions/index.ts';
import { findTemplate } from '../templates/index.ts';
import { done, StepFailure, type StepRunner } from './workflows.outcome.ts';
import { renderStepMessage } from './workflows.render.ts';

/** SEND_EMAIL: a MARKETING template goes only to subscribed contacts (List-Unsubscribe, tracking); any template skips suppressed addresses. */
export const runSendEmail: StepRunner = async (ctx, input) => {
  const step = input.planned.step;
  if (step.type !== 'SEND_EMAIL') throw new Error('not a SEND_EMAIL step');
  const { exec, contact } = input;
  const template = await findTemplate(ctx.db, exec.projectId, step.templateId);
  if (!template) throw new StepFailure(`template ${step.templateId} no longer exists`);
  if (!template.fromEmail) throw new StepFailure(`template ${template.id} has no sender (from)`);
  try {
    await requireSenderDomain({ ctx, projectId: exec.projectId, from: template.fromEmail });
  } catch (error) {
    if (error instanceof AppError) throw new StepFailure(error.message);
    throw error;
  }
  const marketing = template.type === 'MARKETING';
  const base = { id: newId(), projectId: exec.projectId, contactId: contact.id, sourceType: 'WORKFLOW' as const, sourceId: exec.workflowId };
  const variables = templateVariables({ contact, data: step.data, unsubscribeUrl: unsubscribeUrlFor(ctx, base) });
  const rendered = await renderStepMessage(ctx, { templateId: template.id, subject: template.subject, html: template.body, variables });
  const sender = template.fromEmail;
  return async (tx) => {
    const suppressed = (await findSuppressed(tx, exec.projectId, [contact.email])).get(contact.email);
    const blocked = suppressed ?? (marketing && !contact.subscribed ? 'UNSUBSCRIBED' : null);
    const row: NewEmail = {
      ...base,
      toEmail: contact.email, toName: null,
      fromEmail: sender, fromName: template.fromName, replyTo: template.replyTo,
      subject: rendered.subject, html: rendered.html, text: rendered.text,
      headers: null, attachmentSetId: null,
      status: blocked ? 'SUPPRESSED' : 'QUEUED',
      statusReason: blocked ?? null,
      marketing, tracking: marketing,
    };
    await queueEmails(tx, [row], 'WORKFLOW');
    return done(input, blocked ? 'SKIPPED' : 'COMPLETED', { emailId: row.id, ...(blocked ? { reason: blocked } : {}) });
  };
};

// SEND_EMAIL: renders the step's template for the contact and hands the email to delivery, in the transaction
// that moves the execution on (so a crash never sends a step's email twice, nor loses it).
import { newId } from '../../lib/ids.ts';
import { templateVariables } from '../../mail/variables.ts';
import { AppError } from '../../lib/errors.ts';
import { linkBaseFor, queueMessages, unsubscribeUrlFor, viewUrlFor } from '../emails/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { findDataFallbacks } from '../contacts/index.ts';
import { findTemplate, translated } from '../templates/index.ts';
import { done, StepFailure, type StepRunner } from './workflows.outcome.ts';
import { renderStepMessage } from './workflows.render.ts';

/**
 * SEND_EMAIL: a MARKETING template goes only to subscribed contacts (List-Unsubscribe, tracking); any template skips
 * suppressed addresses.
 */
export const runSendEmail: StepRunner = async (ctx, input) => {
  const step = input.planned.step;
  if (step.type !== 'SEND_EMAIL') throw new Error('not a SEND_EMAIL step');
  const { exec, contact } = input;
  const template = await findTemplate({ db: ctx.db, projectId: exec.projectId, id: step.templateId });
  if (!template) throw new StepFailure(`template ${step.templateId} no longer exists`);
  if (template.version === 0) throw new StepFailure(`template ${template.id} has no published version`);
  if (!template.fromEmail) throw new StepFailure(`template ${template.id} has no sender (from)`);
  let domain: Awaited<ReturnType<typeof requireSenderDomain>>;
  try {
    domain = await requireSenderDomain({ ctx, projectId: exec.projectId, from: template.fromEmail });
  } catch (error) {
    if (error instanceof AppError) throw new StepFailure(error.message);
    throw error;
  }
  const marketing = template.type === 'MARKETING';
  const sender = { email: template.fromEmail, name: template.fromName, replyTo: template.replyTo };
  const emailId = newId();
  const email = {
    id: emailId,
    projectId: exec.projectId,
    contactId: contact.id,
    sourceType: 'WORKFLOW',
    sourceId: exec.workflowId,
  };
  // Built once, on the base the message's links use (the sender domain's tracking host, else PUBLIC_URL).
  const unsubscribeUrl = unsubscribeUrlFor(ctx, email, linkBaseFor(ctx, domain));
  const variables = templateVariables({
    contact,
    data: step.data,
    unsubscribeUrl,
    viewInBrowserUrl: viewUrlFor(ctx, emailId, linkBaseFor(ctx, domain)),
    fallbacks: await findDataFallbacks({ db: ctx.db, projectId: exec.projectId }),
  });
  // In the contact's language when the template has it (pt-BR reads pt-BR, then pt), else the default.
  const message = translated(template, contact.locale);
  const rendered = await renderStepMessage(ctx, {
    templateId: template.id,
    subject: message.subject,
    html: message.html,
    variables,
  });
  return async (tx) => {
    const [email] = await queueMessages(tx, {
      projectId: exec.projectId,
      source: { type: 'WORKFLOW', id: exec.workflowId },
      sender,
      marketing,
      template: { id: template.id, version: template.version },
      messages: [
        {
          id: emailId,
          contactId: contact.id,
          to: { email: contact.email },
          subscribed: contact.subscribed,
          locale: message.locale,
          subject: rendered.subject,
          body: { html: rendered.html, text: rendered.text },
        },
      ],
    });
    const skipped = email!.status !== 'QUEUED';
    return done(input, skipped ? 'SKIPPED' : 'COMPLETED', {
      emailId: email!.id,
      ...(skipped ? { reason: email!.statusReason } : {}),
    });
  };
};

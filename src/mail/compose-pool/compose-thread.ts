// One message's CPU work, the same on a pool thread or inline: render the stored content for this
// recipient (campaign mail), rewrite links for tracking, compose the MIME message and DKIM-sign it.
import type { KeyObject } from 'node:crypto';
import { composeMessage, ComposeError, type ComposeInput } from '../compose.ts';
import { composeMimeMessage } from '../compose-mime.ts';
import { renderTemplate, TemplateError } from '../render.ts';
import { rewriteHtmlForTracking } from '../links.ts';

export interface BuildTask {
  /** The message, less what the steps below fill in (subject/html/text when `render` is given). */
  compose: Omit<ComposeInput, 'html' | 'text' | 'dkim'> & { html?: string; text?: string };
  dkim: { domainName: string; keySelector: string; privateKey: KeyObject | string };
  /** Render the shared content with these variables (campaign mail rendered at send time). */
  render?: { subject: string; html: string; text?: string; variables: Record<string, unknown> };
  /**
   * A message submitted over SMTP, sent as the client wrote it (then `compose` gives only its Message-ID and
   * Feedback-ID).
   */
  mime?: Uint8Array;
  /** Tracking pixel, click links and the unsubscribe link. */
  tracking?: { emailId: string; baseUrl: string; secret: string; unsubscribeUrl?: string };
}

/**
 * A message that cannot be built is a result: RENDER_FAILED (the template, for this recipient's data) or BUILD_FAILED.
 */
export type BuildResult =
  | { ok: true; raw: Uint8Array }
  | { ok: false; reason: 'RENDER_FAILED' | 'BUILD_FAILED'; error: string }
  /** The render ran out of time (a busy machine can cause it): try again later. */
  | { ok: false; reason: 'RENDER_TIMED_OUT'; error: string };

/** The body of an email as its recipient reads it, before tracking: stored, or rendered from shared content. */
export function bodyOf(task: Pick<BuildTask, 'compose' | 'render'>): { subject: string; html: string; text: string } {
  if (!task.render)
    return { subject: task.compose.subject, html: task.compose.html ?? '', text: task.compose.text ?? '' };
  return renderTemplate(task.render);
}

/** Builds the signed message; a message that cannot be built (bad template data, header) is a result, not a throw. */
export async function buildMessage(task: BuildTask): Promise<BuildResult> {
  try {
    const tracking = task.tracking;
    const track = (html: string) =>
      tracking
        ? rewriteHtmlForTracking({
            html,
            emailId: tracking.emailId,
            baseUrl: tracking.baseUrl,
            secret: tracking.secret,
            opens: true,
            clicks: true,
            ...(tracking.unsubscribeUrl ? { unsubscribeUrl: tracking.unsubscribeUrl } : {}),
          })
        : html;
    if (task.mime) {
      const raw = await composeMimeMessage({
        mime: task.mime,
        messageId: task.compose.messageId,
        dkim: task.dkim,
        ...(task.compose.feedbackId ? { feedbackId: task.compose.feedbackId } : {}),
        ...(tracking ? { rewriteHtml: track } : {}),
      });
      return { ok: true, raw };
    }
    const body = bodyOf(task);
    const html = track(body.html);
    const raw = await composeMessage({
      ...task.compose,
      subject: task.render ? body.subject : task.compose.subject,
      html,
      text: body.text,
      dkim: task.dkim,
    });
    return { ok: true, raw };
  } catch (error) {
    if (error instanceof TemplateError)
      return {
        ok: false,
        reason: error.timedOut ? 'RENDER_TIMED_OUT' : 'RENDER_FAILED',
        error: error.message.slice(0, 1000),
      };
    if (error instanceof ComposeError)
      return { ok: false, reason: 'BUILD_FAILED', error: error.message.slice(0, 1000) };
    throw error;
  }
}

/** The compose thread's task (piscina calls the default export). */
export default buildMessage;

/** The small HTML pages people see from links in their mail. */

import { escapeHtml as escape, hostedPage as page } from '../../lib/hosted-page.ts';

/**
 * GET of an unsubscribe link: a confirmation button, never the unsubscribe itself (scanners follow GETs).
 * The form posts back to the URL the page came from (`action` is the token, relative to it), whatever host
 * served it: the pages' policy allows forms to post to their own origin only.
 */
export function unsubscribeConfirmPage(action: string, email: string | null, sender: string): string {
  const who = email ? ` <strong>${escape(email)}</strong>` : '';
  return page(
    `Unsubscribe from ${sender}`,
    `${from(sender)}<h1>Unsubscribe</h1><p>Stop receiving emails from ` +
      `${escape(sender)} at${who || ' this address'}?</p>` +
      `<form method="post" action="${escape(action)}"><input type="hidden" ` +
      `name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );
}

const from = (sender: string) => `<p class="from">Emails from <strong>${escape(sender)}</strong></p>`;

/**
 * After unsubscribing: a Resubscribe button that posts (no script needed) to `<token>/resubscribe`, relative
 * to the unsubscribe URL the page answers.
 */
export function unsubscribedPage(token: string, sender: string): string {
  return page(
    'Unsubscribed',
    `${from(sender)}<h1>You are unsubscribed</h1><p>You will not receive ` +
      `these emails from ${escape(sender)} any more.</p>` +
      `<p>Unsubscribed by mistake?</p><form method="post" action="${escape(token)}/resubscribe"><button ` +
      `type="submit" class="secondary">Resubscribe</button></form>`,
  );
}

/** After resubscribing (the page answers `<token>/resubscribe`): the way back out is one more click. */
export function resubscribedPage(token: string, sender: string): string {
  return page(
    'Subscribed again',
    `${from(sender)}<h1>You are subscribed again</h1><p>You will receive emails from ${escape(sender)} again.</p>` +
      `<form method="post" action="../${escape(token)}"><input type="hidden" ` +
      `name="List-Unsubscribe" value="One-Click"><button type="submit" ` +
      `class="secondary">Unsubscribe</button></form>`,
  );
}

export { invalidLinkPage } from '../../lib/hosted-page.ts';

export function busyLinkPage(): string {
  return page('Try again', '<h1>This link is busy</h1><p>Please try again in a moment.</p>');
}

/** A 1×1 transparent GIF. */
export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

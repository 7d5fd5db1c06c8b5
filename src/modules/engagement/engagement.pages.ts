/** The small HTML pages people see from links in their mail, in the language `lang` (lib/i18n). */

import { escapeHtml as escape, fromLine, hostedPage as page, senderHtml } from '../../lib/hosted-page.ts';
import { t, type Language } from '../../lib/i18n/index.ts';

/** Who the mail came from, as a page's title names it: the project's name, or the language's word for a sender. */
const senderText = (lang: Language, sender: string | null) => sender ?? t(lang, 'page.unknownSender');

/** Marks a POST as the page's button rather than a mail client's one-click request (the consent ledger tells them). */
const VIA_PAGE = '<input type="hidden" name="via" value="page">';

/** True when an unsubscribe POST came from the link's page (its form's `via` field). */
export function postedFromPage(body: unknown): 'unsubscribe_link' | 'one_click' {
  const fields = typeof body === 'string' ? new URLSearchParams(body) : null;
  return fields?.get('via') === 'page' ? 'unsubscribe_link' : 'one_click';
}

/**
 * GET of an unsubscribe link: a confirmation button, never the unsubscribe itself (scanners follow GETs).
 * The form posts back to the URL the page came from (`action` is the token, relative to it), whatever host
 * served it: the pages' policy allows forms to post to their own origin only.
 */
export function unsubscribeConfirmPage(
  lang: Language,
  action: string,
  email: string | null,
  sender: string | null,
): string {
  const question = email
    ? t(lang, 'unsubscribe.question', { sender: senderHtml(lang, sender), email: escape(email) })
    : t(lang, 'unsubscribe.questionNoEmail', { sender: senderHtml(lang, sender) });
  return page(
    lang,
    t(lang, 'unsubscribe.title', { sender: senderText(lang, sender) }),
    `${fromLine(lang, sender)}<h1>${t(lang, 'unsubscribe.heading')}</h1><p>${question}</p>` +
      `<form method="post" action="${escape(action)}"><input type="hidden" name="List-Unsubscribe" ` +
      `value="One-Click">${VIA_PAGE}<button type="submit">${t(lang, 'unsubscribe.button')}</button>` +
      `</form>`,
  );
}

/**
 * After unsubscribing: a Resubscribe button that posts (no script needed) to `<token>/resubscribe`, relative
 * to the unsubscribe URL the page answers.
 */
export function unsubscribedPage(lang: Language, token: string, sender: string | null): string {
  return page(
    lang,
    t(lang, 'unsubscribed.title'),
    `${fromLine(lang, sender)}<h1>${t(lang, 'unsubscribed.heading')}</h1>` +
      `<p>${t(lang, 'unsubscribed.body', { sender: senderHtml(lang, sender) })}</p>` +
      `<p>${t(lang, 'unsubscribed.mistake')}</p><form method="post" action="${escape(token)}/resubscribe"><button ` +
      `type="submit" class="secondary">${t(lang, 'unsubscribed.resubscribe')}</button></form>`,
  );
}

/** After resubscribing (the page answers `<token>/resubscribe`): the way back out is one more click. */
export function resubscribedPage(lang: Language, token: string, sender: string | null): string {
  return page(
    lang,
    t(lang, 'resubscribed.title'),
    `${fromLine(lang, sender)}<h1>${t(lang, 'resubscribed.heading')}</h1>` +
      `<p>${t(lang, 'resubscribed.body', { sender: senderHtml(lang, sender) })}</p>` +
      `<form method="post" action="../${escape(token)}"><input type="hidden" ` +
      `name="List-Unsubscribe" value="One-Click">${VIA_PAGE}<button type="submit" ` +
      `class="secondary">${t(lang, 'unsubscribe.button')}</button></form>`,
  );
}

export { invalidLinkPage } from '../../lib/hosted-page.ts';

/** A click that cannot be resolved now: try again in a moment. */
export function busyLinkPage(lang: Language): string {
  return page(lang, t(lang, 'busy.title'), `<h1>${t(lang, 'busy.heading')}</h1><p>${t(lang, 'busy.body')}</p>`);
}

/** A 1×1 transparent GIF. */
export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

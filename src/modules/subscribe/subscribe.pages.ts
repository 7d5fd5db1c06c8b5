// The pages of a confirmation link, in the language `lang` (lib/i18n): GET shows a button (link scanners only GET),
// its POST confirms.
import { escapeHtml as escape, fromLine, hostedPage as page, senderHtml } from '../../lib/hosted-page.ts';
import { t, type Language } from '../../lib/i18n/index.ts';

export function confirmPage(lang: Language, action: string, email: string, sender: string | null): string {
  return page(
    lang,
    t(lang, 'confirm.title', { sender: sender ?? t(lang, 'page.unknownSender') }),
    `${fromLine(lang, sender)}<h1>${t(lang, 'confirm.heading')}</h1>` +
      `<p>${t(lang, 'confirm.question', { email: escape(email), sender: senderHtml(lang, sender) })}</p>` +
      `<form method="post" action="${escape(action)}"><button type="submit">${t(lang, 'confirm.button')}</button>` +
      `</form>`,
  );
}

export function confirmedPage(lang: Language, email: string, sender: string | null): string {
  return page(
    lang,
    t(lang, 'confirmed.title'),
    `${fromLine(lang, sender)}<h1>${t(lang, 'confirmed.heading')}</h1>` +
      `<p>${t(lang, 'confirmed.body', { email: escape(email), sender: senderHtml(lang, sender) })}</p>`,
  );
}

export function expiredPage(lang: Language): string {
  return page(
    lang,
    t(lang, 'expired.title'),
    `<h1>${t(lang, 'expired.heading')}</h1><p>${t(lang, 'expired.body')}</p>`,
  );
}

// The preference centre's page: plain HTML forms that work without JavaScript, posting back to the page's own URL.
import { escapeHtml as escape, fromLine, hostedPage as page, senderHtml } from '../../lib/hosted-page.ts';
import { t, type Language } from '../../lib/i18n/index.ts';
import type { ManageState } from './topics.manage.ts';

/** What a saved form says above the page. */
export type PreferencesNotice = 'saved' | 'unsubscribed' | 'resubscribed' | 'snoozed' | 'resumed';

const NOTICES = {
  saved: 'preferences.saved',
  unsubscribed: 'preferences.unsubscribed',
  resubscribed: 'preferences.resubscribed',
  snoozed: 'preferences.snoozed',
  resumed: 'preferences.resumed',
} as const;

const PAUSES = { '2w': 'preferences.pause2w', '1m': 'preferences.pause1m', '3m': 'preferences.pause3m' } as const;

/**
 * Pausing marketing mail: while paused, until when and a button to resume; otherwise one button per length (each a
 * submit of the same form, so no script is needed to pick one).
 */
function pauseForm(lang: Language, action: string, state: ManageState): string {
  const open = `<form method="post" action="${escape(action)}">`;
  if (state.snoozedUntil) {
    const date = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: state.timezone }).format(
      state.snoozedUntil,
    );
    return (
      `${open}<input type="hidden" name="action" value="resume">` +
      `<p>${t(lang, 'preferences.pausedUntil', { date: escape(date) })}</p>` +
      `<button type="submit" class="secondary">${t(lang, 'preferences.resume')}</button></form>`
    );
  }
  const buttons = Object.entries(PAUSES)
    .map(
      ([value, key]) =>
        `<button type="submit" name="pause" value="${value}" class="secondary">${t(lang, key)}</button> `,
    )
    .join('');
  const intro = `<p>${t(lang, 'preferences.pauseIntro')}</p>`;
  return `${open}<input type="hidden" name="action" value="snooze">${intro}${buttons}</form>`;
}

/**
 * The page in `lang`: the sender, the address, a checkbox per topic (names and descriptions as the project wrote
 * them), and unsubscribe (or resubscribe) from everything.
 */
export function preferencesPage(
  lang: Language,
  action: string,
  state: ManageState,
  notice?: PreferencesNotice,
): string {
  const sender = senderHtml(lang, state.projectName);
  const title = t(lang, 'preferences.title', { sender: state.projectName ?? t(lang, 'page.unknownSender') });
  const saved = notice ? `<p class="from"><strong>${t(lang, NOTICES[notice])}</strong></p>` : '';
  const head =
    `${fromLine(lang, state.projectName)}<h1>${t(lang, 'preferences.heading')}</h1>${saved}` +
    `<p>${t(lang, 'preferences.for', { email: escape(state.contact.email) })}</p>`;
  if (!state.contact.subscribed) {
    return page(
      lang,
      title,
      `${head}<p>${t(lang, 'preferences.unsubscribedAll', { sender })}</p>` +
        `<form method="post" action="${escape(action)}"><input type="hidden" ` +
        `name="action" value="resubscribe"><button type="submit">${t(lang, 'unsubscribed.resubscribe')}</button>` +
        `</form>`,
    );
  }
  const boxes = state.topics
    .map(
      (topic) =>
        `<p><label><input type="checkbox" name="topic" value="${escape(topic.id)}"` +
        `${topic.subscribed ? ' checked' : ''}> <strong>${escape(topic.name)}</strong></label>` +
        `${topic.description ? `<br><span class="from">${escape(topic.description)}</span>` : ''}</p>`,
    )
    .join('');
  const topics =
    state.topics.length === 0
      ? ''
      : `<form method="post" action="${escape(action)}"><input type="hidden" name="action" value="save">` +
        `<p>${t(lang, 'preferences.choose')}</p>${boxes}` +
        `<button type="submit">${t(lang, 'preferences.save')}</button></form>`;
  return page(
    lang,
    title,
    `${head}${topics}${pauseForm(lang, action, state)}` +
      `<form method="post" action="${escape(action)}"><input type="hidden" ` +
      `name="action" value="unsubscribe"><button type="submit" class="secondary">` +
      `${t(lang, 'preferences.unsubscribeAll')}</button></form>`,
  );
}

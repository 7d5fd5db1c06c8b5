// The preference centre's page: plain HTML forms that work without JavaScript, posting back to the page's own URL.
import { escapeHtml as escape, hostedPage as page } from '../../lib/hosted-page.ts';
import type { ManageState } from './topics.manage.ts';

/** The page: the sender, the address, a checkbox per topic, and unsubscribe (or resubscribe) from everything. */
export function preferencesPage(action: string, state: ManageState, notice?: string): string {
  const sender = escape(state.projectName);
  const saved = notice ? `<p class="from"><strong>${escape(notice)}</strong></p>` : '';
  const head =
    `<p class="from">Emails from <strong>${sender}</strong></p><h1>Email preferences</h1>${saved}` +
    `<p>For <strong>${escape(state.contact.email)}</strong>.</p>`;
  if (!state.contact.subscribed) {
    return page(
      `Email preferences for ${state.projectName}`,
      `${head}<p>You are unsubscribed from every email of ${sender}.</p>` +
        `<form method="post" action="${escape(action)}"><input type="hidden" ` +
        `name="action" value="resubscribe"><button type="submit">Resubscribe</button></form>`,
    );
  }
  const boxes = state.topics
    .map(
      (t) =>
        `<p><label><input type="checkbox" name="topic" value="${escape(t.id)}"${t.subscribed ? ' checked' : ''}> ` +
        `<strong>${escape(t.name)}</strong></label>` +
        `${t.description ? `<br><span class="from">${escape(t.description)}</span>` : ''}</p>`,
    )
    .join('');
  const topics =
    state.topics.length === 0
      ? ''
      : `<form method="post" action="${escape(action)}"><input type="hidden" name="action" value="save">` +
        `<p>Choose what you want to hear about:</p>${boxes}<button type="submit">Save preferences</button></form>`;
  return page(
    `Email preferences for ${state.projectName}`,
    `${head}${topics}` +
      `<form method="post" action="${escape(action)}"><input type="hidden" ` +
      `name="action" value="unsubscribe"><button type="submit" class="secondary">Unsubscribe ` +
      `from everything</button></form>`,
  );
}

// The pages of a confirmation link: GET shows a button (link scanners only GET), its POST confirms.
import { escapeHtml as escape, hostedPage as page } from '../../lib/hosted-page.ts';

const from = (sender: string) => `<p class="from">Emails from <strong>${escape(sender)}</strong></p>`;

export function confirmPage(action: string, email: string, sender: string): string {
  return page(
    `Confirm your subscription to ${sender}`,
    `${from(sender)}<h1>Confirm your subscription</h1>` +
      `<p>Subscribe <strong>${escape(email)}</strong> to emails from ${escape(sender)}?</p>` +
      `<form method="post" action="${escape(action)}"><button type="submit">Confirm</button></form>`,
  );
}

export function confirmedPage(email: string, sender: string): string {
  return page(
    'Subscription confirmed',
    `${from(sender)}<h1>You are subscribed</h1><p><strong>${escape(email)}</strong> ` +
      `will receive emails from ${escape(sender)}.</p>`,
  );
}

export function expiredPage(): string {
  return page(
    'Link expired',
    '<h1>This link has expired</h1><p>Confirmation links are valid for 7 days. Sign up again to get a new one.</p>',
  );
}

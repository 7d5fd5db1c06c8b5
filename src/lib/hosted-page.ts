// The frame of the small HTML pages Herald serves to people (links in mail): no script, one inline style,
// allowed by its hash in the pages' Content-Security-Policy (plugins/security-headers.ts).
import { createHash } from 'node:crypto';
import { FAVICON_DATA_URL } from './brand.ts';
import { t, type Language } from './i18n/index.ts';

/**
 * A client that asks for HTML (Accept: text/html), as a person's browser following a link does: it gets pages; any
 * other client gets the JSON error envelope.
 */
export function acceptsHtml(request: { headers: { accept?: string | undefined } }): boolean {
  return /\btext\/html\b/.test(request.headers.accept ?? '');
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222;line-height:1.5}' +
  'button{font-size:1rem;padding:.6rem ' +
  '1.2rem;cursor:pointer;border-radius:6px;border:1px solid ' +
  '#2450d6;background:#2450d6;color:#fff}' +
  'button.secondary{background:#fff;color:#2450d6}.from{color:#5b6474;font-size:.95rem}form{margin-top:1.25rem}';

/** The CSP source that admits the pages' one `<style>` element and nothing else. */
export const HOSTED_PAGE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** Text for HTML content and quoted attribute values. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A whole page in `lang`: `title` is text, `body` is HTML the caller built (escaping what it put in), `head` more of
 * the head (a page's own stylesheet or script, from this server).
 */
export function hostedPage(lang: Language, title: string, body: string, head = ''): string {
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta ` +
    `name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><link ` +
    `rel="icon" type="image/svg+xml" href="${FAVICON_DATA_URL}"><style>${STYLE}</style>${head}` +
    `</head><body>${body}</body></html>`
  );
}

/** The page of a link whose token is not valid (forged, damaged, or signed with another secret). */
export function invalidLinkPage(lang: Language): string {
  return hostedPage(
    lang,
    t(lang, 'invalid.title'),
    `<h1>${t(lang, 'invalid.heading')}</h1><p>${t(lang, 'invalid.body')}</p>`,
  );
}

/** The line naming who the mail came from, atop the pages of its links (the sender unknown: a word for it). */
export function fromLine(lang: Language, sender: string | null): string {
  return `<p class="from">${t(lang, 'page.from', { sender: senderHtml(lang, sender) })}</p>`;
}

/** The sender's name as HTML in a page's text: escaped, or the language's word for an unknown sender. */
export function senderHtml(lang: Language, sender: string | null): string {
  return sender === null ? t(lang, 'page.unknownSender') : escapeHtml(sender);
}

/** The bodies the hosted pages' forms (and RFC 8058 one-click POSTs) send, kept as text for the route to read. */
export const FORM_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
export const FORM_BODY_LIMIT = 64 * 1024;

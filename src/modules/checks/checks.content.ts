// What a message's HTML alone tells before it is sent: its size, its unsubscribe link, images without alt text,
// links whose text names another address than their target, links through URL shorteners, and how much text a
// reader without images (or without HTML) gets.
import { Parser } from 'htmlparser2';
import { htmlToText } from '../../mail/render.ts';
import type { CheckIssue } from './checks.types.ts';

/** Gmail clips a message whose HTML is larger than this, hiding the rest (and its unsubscribe link) behind a link. */
export const GMAIL_CLIP_BYTES = 102 * 1024;

/** Above this much HTML, a message with next to no text reads as an image or as markup to filters. */
const TEXT_CHECK_MIN_HTML = 1024;

/** Text shorter than this (after the HTML is turned into text) counts as none. */
const MIN_TEXT_CHARS = 20;

/**
 * Link shorteners: they hide where a link goes, and spam filters weigh them (a blocklisted shortener domain sinks
 * every message that uses it).
 */
const SHORTENERS = new Set([
  'bit.ly',
  'bitly.com',
  'buff.ly',
  'cutt.ly',
  'goo.gl',
  'is.gd',
  'lnkd.in',
  'ow.ly',
  'rb.gy',
  'rebrand.ly',
  's.id',
  'shorturl.at',
  't.co',
  't.ly',
  'tiny.cc',
  'tinyurl.com',
  'v.gd',
]);

export interface ContentFacts {
  /** The distinct hosts of the message's http(s) links (Liquid in an address: not counted). */
  linkHosts: string[];
  issues: CheckIssue[];
}

interface Link {
  href: string;
  text: string;
}

/** A host of an absolute http(s) address, or null (relative, other schemes, Liquid still in it). */
function hostOf(address: string): string | null {
  const value = address.trim();
  if (!/^https?:\/\//i.test(value) || value.includes('{{') || value.includes('{%')) return null;
  try {
    return new URL(value).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** The host a link's text names, when the text is itself an address (`www.example.com/x`, `https://…`). */
function hostNamedBy(text: string): string | null {
  const value = text.trim();
  if (/\s/.test(value) || value.length < 4) return null;
  if (/^https?:\/\//i.test(value)) return hostOf(value);
  if (/^www\.[a-z0-9-]+(\.[a-z0-9-]+)+(\/\S*)?$/i.test(value)) return hostOf(`https://${value}`);
  return null;
}

/** The same site: equal hosts, or one a subdomain of the other. */
function sameSite(a: string, b: string): boolean {
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

const quoted = (items: string[], max = 5) =>
  items
    .slice(0, max)
    .map((item) => `"${item}"`)
    .join(', ') + (items.length > max ? ` and ${items.length - max} more` : '');

/**
 * The issues of a message's HTML source as stored (Liquid unrendered): `marketing` mail should link to its
 * unsubscribe or preference page in its body.
 */
export function checkHtml(html: string, opts: { marketing: boolean }): ContentFacts {
  const links: Link[] = [];
  const imagesWithoutAlt: string[] = [];
  let images = 0;
  let open: Link | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'a') {
          open = { href: attributes.href ?? '', text: '' };
          links.push(open);
        } else if (name === 'img') {
          images++;
          if (attributes.alt === undefined) imagesWithoutAlt.push(attributes.src ?? '(no src)');
        }
      },
      ontext(text) {
        if (open) open.text += text;
      },
      onclosetag(name) {
        if (name === 'a') open = null;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  const issues: CheckIssue[] = [];
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > GMAIL_CLIP_BYTES)
    issues.push({
      code: 'html_too_large',
      severity: 'warning',
      message: `The HTML is ${Math.round(bytes / 1024)} KB; Gmail clips messages over 102 KB and hides the rest`,
      fix: 'Shorten the content, move long parts to a web page, or drop inline styles and comments',
    });
  if (opts.marketing && !/\{\{-?\s*(unsubscribeUrl|manageUrl)\b/.test(html))
    issues.push({
      code: 'no_unsubscribe_link',
      severity: 'warning',
      message:
        'The body has no {{ unsubscribeUrl }} or {{ manageUrl }} link (the List-Unsubscribe header is added anyway)',
      fix: 'Add a visible link: <a href="{{ unsubscribeUrl }}">Unsubscribe</a> or <a href="{{ manageUrl }}">Manage</a>',
    });
  if (imagesWithoutAlt.length > 0)
    issues.push({
      code: 'image_without_alt',
      severity: 'warning',
      message: `${imagesWithoutAlt.length} image(s) have no alt text: ${quoted(imagesWithoutAlt, 3)}`,
      fix:
        'Give every image an alt attribute (alt="" for decoration): readers with images off and screen readers ' +
        'see it',
    });
  const misleading = links.filter((link) => {
    const named = hostNamedBy(link.text);
    const target = hostOf(link.href);
    return named !== null && target !== null && !sameSite(named, target);
  });
  if (misleading.length > 0)
    issues.push({
      code: 'misleading_link_text',
      severity: 'warning',
      message: `${misleading.length} link(s) show one address and go to another: ${quoted(
        misleading.map((link) => `${link.text.trim()} → ${hostOf(link.href)}`),
        3,
      )}`,
      fix:
        'Make the text name where the link goes, or use words instead of an address (phishing filters look for ' +
        'this)',
    });
  const linkHosts = [...new Set(links.map((link) => hostOf(link.href)).filter((host) => host !== null))];
  const shortened = linkHosts.filter((host) => SHORTENERS.has(host.replace(/^www\./, '')));
  if (shortened.length > 0)
    issues.push({
      code: 'url_shortener',
      severity: 'warning',
      message: `Links go through a URL shortener: ${quoted(shortened)}`,
      fix: 'Link to the full address: click tracking already shortens nothing and counts clicks',
    });
  const text = htmlToText(html).replace(/\{\{[^}]*\}\}|\{%[^%]*%\}/g, ' ');
  const textChars = text.replace(/\s+/g, '').length;
  if (images > 0 && textChars < MIN_TEXT_CHARS)
    issues.push({
      code: 'images_only',
      severity: 'warning',
      message:
        'The message is images with next to no text: filters cannot read it, and readers with images off see nothing',
      fix: 'Put the message in text too, with the images beside it',
    });
  else if (bytes > TEXT_CHECK_MIN_HTML && textChars < MIN_TEXT_CHARS)
    issues.push({
      code: 'no_plain_text',
      severity: 'warning',
      message: `${Math.round(bytes / 1024)} KB of HTML with no text to read (its plain-text part is empty)`,
      fix: 'Write the message as text in the HTML (not only in attributes, styles or images)',
    });
  return { linkHosts, issues };
}

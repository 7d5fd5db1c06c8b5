// Signed tokens for open, click and unsubscribe links, and the HTML rewrite that inserts them.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { encodeAttributeValue, rewriteAttributes } from './html-attrs.ts';

/** What a token is for; `campaign-send` is no link but the confirmation an MCP agent passes back to send a campaign. */
export type TokenPurpose = 'open' | 'click' | 'unsubscribe' | 'confirm' | 'campaign-send' | 'view' | 'download';

const MAC_BYTES = 16; // HMAC-SHA256 truncated to 128 bits: unforgeable, and keeps links short
const MAX_TOKEN_LENGTH = 8192;

// Each purpose has its own key, so e.g. a click token can never be replayed as an unsubscribe.
// Every message signs several tokens: derive each purpose's key once per secret, not per token.
const derivedKeys = new Map<string, Buffer>();

function purposeKey(secret: string | Buffer, purpose: TokenPurpose): Buffer {
  if (secret.length === 0) throw new Error('token secret is empty');
  const cacheKey = `${purpose}\u0000${typeof secret === 'string' ? secret : secret.toString('base64')}`;
  let key = derivedKeys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'herald-link-tokens', `herald:token:${purpose}:v1`, 32));
    if (derivedKeys.size >= 16) derivedKeys.clear();
    derivedKeys.set(cacheKey, key);
  }
  return key;
}

function mac(key: Buffer, purpose: TokenPurpose, body: string): Buffer {
  return createHmac('sha256', key).update(`${purpose}.${body}`).digest().subarray(0, MAC_BYTES);
}

// `<base64url(JSON payload)>.<base64url(mac)>`: self-contained, nothing stored per link.
export function signToken(secret: string | Buffer, purpose: TokenPurpose, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(purposeKey(secret, purpose), purpose, body).toString('base64url')}`;
}

// Returns the payload only when the MAC verifies (constant-time); null for anything forged or malformed.
export function verifyToken(secret: string | Buffer, purpose: TokenPurpose, token: string): unknown {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const body = token.slice(0, dot);
  // Compare the encoded form, so only the canonical encoding of the MAC is accepted.
  const given = Buffer.from(token.slice(dot + 1), 'utf8');
  const expected = Buffer.from(mac(purposeKey(secret, purpose), purpose, body).toString('base64url'), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

function isHttpUrl(value: string): boolean {
  return redirectTarget(value) !== null;
}

/**
 * The URL a click redirects to: the link parsed and serialised as a browser would (WHATWG URL), so
 * non-ASCII is percent-encoded, an IDN host is punycode and tabs or newlines (an `&#10;` in the HTML) are
 * dropped — a value that is always safe in a `Location` header. Null unless it is an http(s) URL.
 */
export function redirectTarget(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // Every serialised URL is printable ASCII; checked anyway, since a header with anything else is a 500.
  return /^[\x21-\x7e]+$/.test(url.href) ? url.href : null;
}

/**
 * The click token binds (email, link index) under the MAC: the destination is read from the message's own
 * HTML at click time (linkAt), so the redirect can never be pointed elsewhere and the token stays
 * short however long the URL is (a URL in the token made links of 1,500 characters a 414).
 */
export function createClickToken(secret: string | Buffer, emailId: string, index: number): string {
  return signToken(secret, 'click', { e: emailId, i: index });
}

/** What a click token names: a link of the email by index, or (tokens of earlier releases) the URL itself. */
export type ClickClaims = { emailId: string; index: number } | { emailId: string; url: string };

// The claims of a click link, or null: the caller answers 404 rather than redirecting (no open redirect).
export function decodeClickToken(secret: string | Buffer, token: string): ClickClaims | null {
  const payload = verifyToken(secret, 'click', token) as { e?: unknown; i?: unknown; u?: unknown } | null;
  if (!payload || typeof payload.e !== 'string') return null;
  if (typeof payload.i === 'number' && Number.isInteger(payload.i) && payload.i >= 0)
    return { emailId: payload.e, index: payload.i };
  const url = typeof payload.u === 'string' ? redirectTarget(payload.u) : null;
  return url === null ? null : { emailId: payload.e, url };
}

const LINK_TAGS = ['a', 'area'] as const;
const LINK_ATTRIBUTES = ['href'] as const;

/** Every link of a rendered body (decoded `href`s), in the order rewriteHtmlForTracking numbers them. */
export function linksIn(html: string): string[] {
  const links: string[] = [];
  rewriteAttributes(html, LINK_TAGS, LINK_ATTRIBUTES, ({ value }) => {
    links.push(value);
    return null;
  });
  return links;
}

/** The redirect target of the link with this index in a rendered body (redirectTarget); null when there is none. */
export function linkAt(html: string, index: number): string | null {
  const link = linksIn(html)[index];
  return link === undefined ? null : redirectTarget(link);
}

// Open-pixel token: identifies the email only.
export function createOpenToken(secret: string | Buffer, emailId: string): string {
  return signToken(secret, 'open', { e: emailId });
}

// The email id of an open pixel, or null (the pixel is served either way).
export function decodeOpenToken(secret: string | Buffer, token: string): { emailId: string } | null {
  const payload = verifyToken(secret, 'open', token) as { e?: unknown } | null;
  return payload && typeof payload.e === 'string' ? { emailId: payload.e } : null;
}

export interface UnsubscribeClaims {
  projectId: string;
  contactId: string;
  /** The email the link came from, when known (campaign/workflow attribution). */
  emailId?: string;
  campaignId?: string;
}

// Unsubscribe link token: identifies recipient and list without further input; grants nothing else.
export function createUnsubscribeToken(secret: string | Buffer, claims: UnsubscribeClaims): string {
  return signToken(secret, 'unsubscribe', {
    p: claims.projectId,
    c: claims.contactId,
    e: claims.emailId,
    m: claims.campaignId,
  });
}

/** The link of an email's page in a browser: for as long as its content is kept, or until `expiresAt` (a share). */
export function createViewToken(secret: string | Buffer, claims: { emailId: string; expiresAt?: Date }): string {
  return signToken(secret, 'view', {
    e: claims.emailId,
    ...(claims.expiresAt ? { x: Math.floor(claims.expiresAt.getTime() / 1000) } : {}),
  });
}

/** Claims of a verified view token, or null. */
export function decodeViewToken(
  secret: string | Buffer,
  token: string,
): { emailId: string; expiresAt: Date | null } | null {
  const p = verifyToken(secret, 'view', token) as Record<string, unknown> | null;
  if (!p || typeof p.e !== 'string' || (p.x !== undefined && typeof p.x !== 'number')) return null;
  return { emailId: p.e, expiresAt: typeof p.x === 'number' ? new Date(p.x * 1000) : null };
}

/** What a download link serves: a file of a project's record, by the record's id and the file's. */
export interface DownloadClaims {
  projectId: string;
  /** What kind of record holds the file (e.g. a received message). */
  kind: string;
  recordId: string;
  fileId: string;
  expiresAt: Date;
}

/** A signed download link's token: it names the file and when the link stops working. */
export function createDownloadToken(secret: string | Buffer, claims: DownloadClaims): string {
  return signToken(secret, 'download', {
    p: claims.projectId,
    k: claims.kind,
    r: claims.recordId,
    f: claims.fileId,
    x: Math.floor(claims.expiresAt.getTime() / 1000),
  });
}

/** Claims of a verified download token (expired or not: the caller tells), or null. */
export function decodeDownloadToken(secret: string | Buffer, token: string): DownloadClaims | null {
  const p = verifyToken(secret, 'download', token) as Record<string, unknown> | null;
  if (!p || typeof p.x !== 'number') return null;
  const { p: projectId, k: kind, r: recordId, f: fileId } = p;
  if (typeof projectId !== 'string' || typeof kind !== 'string' || typeof recordId !== 'string') return null;
  if (typeof fileId !== 'string') return null;
  return { projectId, kind, recordId, fileId, expiresAt: new Date(p.x * 1000) };
}

// Claims of a verified unsubscribe token, or null.
export function decodeUnsubscribeToken(secret: string | Buffer, token: string): UnsubscribeClaims | null {
  const p = verifyToken(secret, 'unsubscribe', token) as Record<string, unknown> | null;
  if (!p || typeof p.p !== 'string' || typeof p.c !== 'string') return null;
  return {
    projectId: p.p,
    contactId: p.c,
    ...(typeof p.e === 'string' ? { emailId: p.e } : {}),
    ...(typeof p.m === 'string' ? { campaignId: p.m } : {}),
  };
}

export interface TrackingRewriteInput {
  html: string;
  emailId: string;
  /** PUBLIC_URL (or the tracking host); links become `${baseUrl}/t/c/<token>`, the pixel `${baseUrl}/t/o/<token>`. */
  baseUrl: string;
  secret: string | Buffer;
  opens: boolean;
  clicks: boolean;
  /** Never rewritten; any link starting with one of `skipPrefixes` is left alone as well. */
  unsubscribeUrl?: string;
  skipPrefixes?: string[];
}

function normaliseForCompare(url: string): string {
  return url.trim();
}

/**
 * The consent pages a message links to on its own base (unsubscribe, the preference centre, view in browser): a
 * visit to one is the recipient managing their mail, not a click on the campaign's content, so it is never tracked.
 */
const CONSENT_LINK_PATHS = ['/unsubscribe/', '/manage/', '/v/'] as const;

/** Whether `url` is one of the consent pages on the link base `base` (no trailing slash). */
export function isConsentLink(url: string, base: string): boolean {
  return CONSENT_LINK_PATHS.some((path) => url.startsWith(`${base}${path}`));
}

// Adds click redirects and the open pixel to a rendered body; mailto:, tel:, the consent links (unsubscribe,
// preference centre, view in browser) and anything not http(s) stay untouched.
export function rewriteHtmlForTracking(input: TrackingRewriteInput): string {
  const base = input.baseUrl.replace(/\/+$/, '');
  let html = input.html;
  if (input.clicks) {
    const skip = [`${base}/t/`, ...(input.skipPrefixes ?? [])];
    const unsubscribe = input.unsubscribeUrl === undefined ? undefined : normaliseForCompare(input.unsubscribeUrl);
    let index = 0;
    html = rewriteAttributes(html, LINK_TAGS, LINK_ATTRIBUTES, ({ value }) => {
      // Every link counts, rewritten or not: linkAt finds it again by the same number.
      const at = index++;
      const url = normaliseForCompare(value);
      if (!isHttpUrl(url)) return null;
      if (unsubscribe !== undefined && url === unsubscribe) return null;
      if (isConsentLink(url, base) || skip.some((prefix) => url.startsWith(prefix))) return null;
      return `${base}/t/c/${createClickToken(input.secret, input.emailId, at)}`;
    });
  }
  if (input.opens) {
    const src = encodeAttributeValue(`${base}/t/o/${createOpenToken(input.secret, input.emailId)}`);
    const pixel = `<img src="${src}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">`;
    const close = html.toLowerCase().lastIndexOf('</body');
    html = close === -1 ? html + pixel : html.slice(0, close) + pixel + html.slice(close);
  }
  return html;
}

/** How long a double opt-in confirmation link stays valid. */
export const CONFIRM_TOKEN_SECONDS = 7 * 24 * 3600;

// Double opt-in confirmation link: names one contact and expires (the signup it answers goes stale); grants only the
// confirmation.
export function createConfirmToken(
  secret: string | Buffer,
  claims: { projectId: string; contactId: string; formId?: string | undefined },
  now = Date.now(),
): string {
  return signToken(secret, 'confirm', {
    p: claims.projectId,
    c: claims.contactId,
    x: Math.floor(now / 1000) + CONFIRM_TOKEN_SECONDS,
    ...(claims.formId ? { f: claims.formId } : {}),
  });
}

// Claims of a verified, unexpired confirmation token; 'expired' when it verifies but is too old; null otherwise.
export function decodeConfirmToken(
  secret: string | Buffer,
  token: string,
  now = Date.now(),
): { projectId: string; contactId: string; formId?: string } | 'expired' | null {
  const p = verifyToken(secret, 'confirm', token) as Record<string, unknown> | null;
  if (!p || typeof p.p !== 'string' || typeof p.c !== 'string' || typeof p.x !== 'number') return null;
  if (p.f !== undefined && typeof p.f !== 'string') return null;
  if (p.x * 1000 < now) return 'expired';
  return { projectId: p.p, contactId: p.c, ...(typeof p.f === 'string' ? { formId: p.f } : {}) };
}

// The links of a tracked email, as a click resolves them. Campaign mail keeps no body per recipient, so a
// click renders the recipient's copy again: on a render pool of its own with a small bound, so that a burst
// of clicks (anyone holding links can make them, no key needed) waits or answers 503 itself and never
// fills the pool that /v1/send renders on. Once retention dropped an email's content, the link targets it kept
// answer instead (delivery.links.kept.ts). An email's links never change, so each is resolved once per
// process while it stays among the recently clicked ones (link scanners click every link of a mail at once).
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { RenderBudgetError } from '../../mail/render-batch.ts';
import { RenderPool } from '../../mail/render-pool.ts';
import { TemplateError } from '../../mail/render.ts';
import { mimeBody } from '../../mail/compose-mime.ts';
import { linksIn } from '../../mail/links.ts';
import { renderInputOf } from './emails.content.ts';
import { unsubscribeUrlFor, viewUrlFor, type LinkSigning } from './emails.link-urls.ts';
import { findMime, findTrackedBody, type EmailRow } from './emails.repo.ts';

/** One thread: clicks are rare next to sends, and a cached email needs none. */
const CLICK_RENDER_THREADS = 1;
/**
 * Click renders and parses of submitted messages running or waiting at once in this process; past it a click answers
 * 503 at once.
 */
const MAX_CLICK_RENDERS = 4;
/** Emails whose links this process keeps. */
const CACHE_SIZE = 500;

/** A process's click resolution: its render thread, the renders under way, and the links of recent emails. */
class ClickLinks {
  readonly pool = new RenderPool(CLICK_RENDER_THREADS);
  renders = 0;
  /** Per email id: the resolution in progress or done, so simultaneous clicks on one email render it once. */
  readonly cache = new Map<string, Promise<Array<string | null> | null>>();
}

const CLICK_LINKS = Symbol('click resolution');
const clickLinksOf = (ctx: AppContext): ClickLinks =>
  ctx.resources.of(
    CLICK_LINKS,
    () => new ClickLinks(),
    (clicks) => clicks.pool.close(),
  );

const busy = () =>
  new AppError('SERVICE_UNAVAILABLE', 'Too many links are being opened right now; retry shortly', {
    headers: { 'Retry-After': '1' },
  });

/**
 * What renders an email's copy again for its links (campaign mail; undefined for a stored body): its links point at
 * PUBLIC_URL.
 */
export function linkRenderInput(
  ctx: LinkSigning & { db: Executor },
  email: Pick<
    EmailRow,
    'id' | 'projectId' | 'contactId' | 'sourceType' | 'sourceId' | 'marketing' | 'contentId' | 'variables'
  >,
) {
  return renderInputOf(ctx.db, email, {
    unsubscribeUrl: email.marketing ? unsubscribeUrlFor(ctx, email) : undefined,
    viewInBrowserUrl: viewUrlFor(ctx, email.id),
  });
}

/**
 * The links of a campaign email's copy, rendered on the click pool within the click bound; null when it does not
 * render.
 */
async function renderForClick(
  clicks: ClickLinks,
  input: NonNullable<Awaited<ReturnType<typeof linkRenderInput>>>,
): Promise<string[] | null> {
  if (clicks.renders >= MAX_CLICK_RENDERS) throw busy();
  clicks.renders++;
  try {
    const [links] = await clicks.pool.renderLinks({ subject: '', html: input.html, variables: [input.variables] });
    return links ?? null;
  } catch (error) {
    // The body rendered when it was sent: running out of time now (a cold thread, a busy machine) is worth a retry.
    if (error instanceof RenderBudgetError || (error instanceof TemplateError && error.kind === 'limit')) throw busy();
    if (error instanceof TemplateError) return null;
    throw error;
  } finally {
    clicks.renders--;
  }
}

/**
 * The links of a stored body (decoded hrefs in body order): a message submitted over SMTP keeps its HTML in its MIME,
 * parsed as the tracking rewrite parsed it when the copy was built; null when there is no body.
 */
export async function storedBodyLinks(
  db: Executor,
  email: Pick<EmailRow, 'html' | 'mimeId'>,
): Promise<string[] | null> {
  if (email.mimeId) {
    const mime = await findMime(db, email.mimeId);
    return mime ? linksIn((await mimeBody(mime, { textFromHtml: false })).html) : null;
  }
  return email.html === null ? null : linksIn(email.html);
}

/** The links of a stored body for a click: a submitted MIME (up to 20 MB to parse) counts toward the click bound. */
async function storedBodyLinksForClick(
  clicks: ClickLinks,
  db: Executor,
  email: Pick<EmailRow, 'html' | 'mimeId'>,
): Promise<string[] | null> {
  if (!email.mimeId) return storedBodyLinks(db, email);
  if (clicks.renders >= MAX_CLICK_RENDERS) throw busy();
  clicks.renders++;
  try {
    return await storedBodyLinks(db, email);
  } finally {
    clicks.renders--;
  }
}

/**
 * An email's links (decoded hrefs in body order; null at a place no click leads to once only the targets are kept), or
 * null when it is not a tracked email of ours or nothing of its links is left.
 */
async function resolveLinks(
  ctx: AppContext,
  clicks: ClickLinks,
  emailId: string,
): Promise<Array<string | null> | null> {
  const email = await findTrackedBody(ctx.db, emailId);
  if (!email) return null;
  // Kept when retention dropped the content. Without them (dropped by an earlier version, or with the contact) what
  // is left answers, as before: a campaign's content still renders, its variables gone.
  if (email.linkTargets) return email.linkTargets;
  const render = await linkRenderInput(ctx, email);
  if (render) return renderForClick(clicks, render);
  return storedBodyLinksForClick(clicks, ctx.db, email);
}

/** The links of a tracked email for a click; throws a 503 AppError when click rendering is saturated. */
export function linksOfEmail(ctx: AppContext, emailId: string): Promise<Array<string | null> | null> {
  const clicks = clickLinksOf(ctx);
  const { cache } = clicks;
  const hit = cache.get(emailId);
  if (hit) {
    cache.delete(emailId);
    cache.set(emailId, hit); // most recently used last
    return hit;
  }
  const links = resolveLinks(ctx, clicks, emailId);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(emailId, links);
  // A failure (busy, a database error) is not remembered: the next click tries again.
  links.catch(() => {
    if (cache.get(emailId) === links) cache.delete(emailId);
  });
  return links;
}

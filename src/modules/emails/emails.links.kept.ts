// What retention keeps of a tracked email's body: the target of each of its links, so that its click links go on
// working once the body is dropped (emails.retention.ts), and nothing else of it. The links are found as a click
// finds them (emails.links.ts): in the stored body (or submitted MIME), or in the recipient's copy of a campaign
// rendered again, the copies of one content together, on a render thread of the job's own (sending and clicks keep
// theirs).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Executor } from '../../db/client.ts';
import { isConsentLink, redirectTarget } from '../../mail/links.ts';
import { RenderBudgetError, type MessageLinks } from '../../mail/render-batch.ts';
import { RenderPool } from '../../mail/render-pool.ts';
import { TemplateError } from '../../mail/render.ts';
import { linkRenderInput, storedBodyLinks } from './emails.links.ts';
import { unsubscribeUrlFor, type LinkSigning } from './emails.link-urls.ts';
import type { EmailRow } from './emails.repo.ts';
import type { ProcessResources } from '../../lib/process-resources.ts';

/** What keeping links needs of the context: the database, how links are signed, a log, and its render thread. */
export type LinkContext = LinkSigning & { db: Executor; logger: Pick<Logger, 'warn'>; resources: ProcessResources };

/** What finding an email's links needs of it. */
export type LinkSource = Pick<
  EmailRow,
  | 'id'
  | 'projectId'
  | 'contactId'
  | 'sourceType'
  | 'sourceId'
  | 'marketing'
  | 'html'
  | 'mimeId'
  | 'contentId'
  | 'variables'
>;

/** Link targets as stored: by link number, null where no click link leads. */
export type LinkTargets = Array<string | null>;

/** One thread: started by the job's first render, gone a minute after its last; closed with the process. */
const KEPT_LINKS_POOL = Symbol('the render thread of kept links');
const poolOf = (ctx: LinkContext): RenderPool =>
  ctx.resources.of(
    KEPT_LINKS_POOL,
    () => new RenderPool(1),
    (pool) => pool.close(),
  );
/** Copies of one content rendered by one task, and the time they may take together (each also within its own limit). */
const COPIES_PER_TASK = 100;
const TASK_BUDGET = { timeMs: 30_000 };

/**
 * What is kept of an email's links (decoded hrefs in body order): each one's redirect target, as a click would redirect
 * (redirectTarget; links into PUBLIC_URL/t/ are refused there too), and null where no click link leads: the email's own
 * unsubscribe link is never rewritten for clicks. Null when no target is left.
 */
export function keptTargets(ctx: LinkContext, email: LinkSource, links: MessageLinks): LinkTargets | null {
  if (!links) return null;
  const unsubscribe = email.marketing ? unsubscribeUrlFor(ctx, email)?.trim() : undefined;
  // Consent pages (unsubscribe, the preference centre, view in browser) on Herald's own bases are never click links.
  const bases = [
    ctx.config.publicUrl,
    ...(unsubscribe ? [unsubscribe.slice(0, unsubscribe.indexOf('/unsubscribe/'))] : []),
  ];
  const targets = links.map((link) => {
    if (link.trim() === unsubscribe) return null;
    const url = redirectTarget(link);
    if (url === null || url.startsWith(`${ctx.config.publicUrl}/t/`)) return null;
    return bases.some((base) => isConsentLink(url, base)) ? null : url;
  });
  while (targets.length > 0 && targets[targets.length - 1] === null) targets.pop();
  return targets.length > 0 ? targets : null;
}

/** Renders the links of copies of one content; a copy that does not render (now, in time) has none. */
async function renderLinks(
  ctx: LinkContext,
  html: string,
  variables: Array<Record<string, unknown>>,
): Promise<MessageLinks[]> {
  const links: MessageLinks[] = [];
  for (let at = 0; at < variables.length; at += COPIES_PER_TASK) {
    const chunk = variables.slice(at, at + COPIES_PER_TASK);
    try {
      links.push(...(await poolOf(ctx).renderLinks({ subject: '', html, variables: chunk, budget: TASK_BUDGET })));
    } catch (error) {
      if (!tooHeavy(error)) throw error;
      // A slow copy stopped the task: each copy on its own, so only those that cannot render in time keep nothing.
      for (const one of chunk) {
        links.push(
          await poolOf(ctx)
            .renderLinks({ subject: '', html, variables: [one] })
            .then(
              ([l]) => l ?? null,
              (e: unknown) => {
                if (!tooHeavy(e)) throw e;
                ctx.logger.warn({ err: e }, 'the links of an email whose copy no longer renders in time are not kept');
                return null;
              },
            ),
        );
      }
    }
  }
  return links;
}

const tooHeavy = (error: unknown) =>
  error instanceof RenderBudgetError || (error instanceof TemplateError && error.kind === 'limit');

/** Whether a template is plain HTML (no Liquid tag or output): it renders the same for every recipient. */
const plainHtml = (html: string) => !html.includes('{{') && !html.includes('{%');

/**
 * The link targets to keep of each of these tracked emails, by id (an email without any is left out). A stored body's
 * links are read here; campaign copies are rendered per recipient, a content at a time, as a click renders them
 * (once for a content that is plain HTML, the same for everyone).
 */
export async function linkTargetsOf(ctx: LinkContext, emails: LinkSource[]): Promise<Map<string, LinkTargets>> {
  const kept = new Map<string, LinkTargets>();
  const keep = (email: LinkSource, links: MessageLinks) => {
    const targets = keptTargets(ctx, email, links);
    if (targets) kept.set(email.id, targets);
  };
  const mimeLinks = new Map<string, Promise<MessageLinks>>();
  const byContent = new Map<
    string,
    { html: string; copies: LinkSource[]; variables: Array<Record<string, unknown>> }
  >();
  for (const email of emails) {
    const input = await linkRenderInput(ctx, email);
    if (input) {
      const group = byContent.get(email.contentId!) ?? { html: input.html, copies: [], variables: [] };
      byContent.set(email.contentId!, group);
      group.copies.push(email);
      group.variables.push(input.variables);
    } else if (email.mimeId) {
      // The copies of a message submitted over SMTP share its MIME: parsed once for them all.
      let links = mimeLinks.get(email.mimeId);
      if (!links) mimeLinks.set(email.mimeId, (links = storedBodyLinks(ctx.db, email)));
      keep(email, await links);
    } else {
      keep(email, await storedBodyLinks(ctx.db, email));
      await nextTurn(); // a large body takes a few ms: sending goes on between them
    }
  }
  for (const { html, copies, variables } of byContent.values()) {
    const same = plainHtml(html);
    const links = await renderLinks(ctx, html, same ? variables.slice(0, 1) : variables);
    copies.forEach((email, i) => keep(email, links[same ? 0 : i]!));
  }
  return kept;
}

// An email's page in a browser: `{{viewInBrowserUrl}}` in the message itself (for as long as its content is kept),
// and share links that expire. The page shows the message as its recipient reads it, before tracking: no open or
// click is counted from it, and remote images load only when the viewer asks (a link to the same page with them).
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, findOr404, notFound } from '../../lib/errors.ts';
import { escapeHtml, hostedPage, invalidLinkPage } from '../../lib/hosted-page.ts';
import { t, type Language } from '../../lib/i18n/index.ts';
import { createViewToken, decodeViewToken } from '../../mail/links.ts';
import { recordAudit } from '../audit/index.ts';
import { findEmailRow, findReportedEmail } from '../emails/index.ts';
import { contentKept, getEmailContent } from './sending.source.ts';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** The longest a share link may last. */
export const MAX_SHARE_MS = 90 * UNIT_MS.d;

export const expiresInSchema = z
  .string()
  .regex(/^[1-9]\d{0,3}[mhd]$/, 'must be a number and a unit: 30m, 12h, 7d')
  .refine((v) => durationMs(v) <= MAX_SHARE_MS, 'at most 90d')
  .meta({ description: 'How long the link works: minutes, hours or days (`30m`, `12h`, `7d`); at most 90 days' });

function durationMs(value: string): number {
  return Number(value.slice(0, -1)) * UNIT_MS[value.at(-1) as keyof typeof UNIT_MS];
}

export const shareSchema = z
  .object({ url: z.string(), expiresAt: z.string().meta({ format: 'date-time' }) })
  .meta({ id: 'EmailShare' });

/** POST /emails/{id}/share: a signed link to the email's page that expires (410 once its content is gone). */
export async function shareEmail(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  expiresIn: string | undefined;
}): Promise<z.infer<typeof shareSchema>> {
  const { ctx, projectId, id } = opts;
  const email = await findOr404('Email', id, () => findEmailRow({ db: ctx.db, projectId, id }));
  contentKept(email);
  const expiresAt = new Date(Date.now() + durationMs(opts.expiresIn ?? '7d'));
  const token = createViewToken(ctx.secrets.appSecret, { emailId: id, expiresAt });
  // A share changes no row: its audit entry is the record of it (written as every change's is, in a transaction).
  await ctx.db.transaction((tx) =>
    recordAudit(tx, {
      action: 'email.shared',
      resourceType: 'email',
      resourceId: id,
      projectId,
      changes: { shareExpiresAt: [null, expiresAt.toISOString()] },
    }),
  );
  return { url: `${ctx.config.publicUrl}/v/${token}`, expiresAt: expiresAt.toISOString() };
}

export interface ViewPage {
  status: 200 | 404 | 410;
  html: string;
  /** Why not, for a client that is no browser (answered in the error envelope). */
  error?: AppError;
}

/** A link to remote content in the message: an image, a background or a stylesheet from elsewhere. */
const REMOTE_CONTENT = new RegExp(
  [
    String.raw`<(?:img|source|image)\b[^>]*\b(?:src|srcset|href)\s*=\s*["']?\s*(?:https?:)?\/\/`,
    String.raw`background(?:-image)?\s*[:=]\s*["']?\s*(?:url\()?\s*["']?\s*(?:https?:)?\/\/`,
  ].join('|'),
  'i',
);

/** The page of a view link: the message, or why not (a forged link: 404; expired or content gone: 410). */
export async function viewPage(ctx: AppContext, token: string, lang: Language, images: boolean): Promise<ViewPage> {
  const claims = decodeViewToken(ctx.secrets.appSecret, token);
  const invalid = { status: 404 as const, html: invalidLinkPage(lang), error: notFound('Link') };
  if (!claims) return invalid;
  const gone = {
    status: 410 as const,
    html: gonePage(lang),
    error: new AppError('GONE', "This link has expired, or the email's content is no longer kept"),
  };
  if (claims.expiresAt && claims.expiresAt.getTime() <= Date.now()) return gone;
  const email = await findReportedEmail(ctx.db, { emailId: claims.emailId });
  if (!email) return invalid;
  let content: Awaited<ReturnType<typeof getEmailContent>>;
  try {
    content = await getEmailContent({ ctx, projectId: email.projectId, id: email.id });
  } catch (error) {
    if (error instanceof AppError) return gone;
    throw error;
  }
  const body = content.html || `<pre style="white-space:pre-wrap">${escapeHtml(content.text)}</pre>`;
  const bar =
    !images && REMOTE_CONTENT.test(body)
      ? `<div style="font:14px system-ui,sans-serif;background:#f4f5f7;color:#222;padding:8px 12px;` +
        `border-bottom:1px solid #dde">${escapeHtml(t(lang, 'view.imagesHidden'))} ` +
        `<a href="?images=1" style="color:#2450d6">${escapeHtml(t(lang, 'view.showImages'))}</a></div>`
      : '';
  return { status: 200, html: withTitleAndBar(body, content.subject, bar) };
}

/** The message's HTML as a page: its subject as the title when it has none, the images bar atop its body. */
function withTitleAndBar(html: string, subject: string, bar: string): string {
  const title = /<title[\s>]/i.test(html) ? '' : `<title>${escapeHtml(subject)}</title>`;
  const head = `<meta charset="utf-8"><meta name="robots" content="noindex">${title}`;
  if (/<body[^>]*>/i.test(html)) {
    const withBar = html.replace(/<body[^>]*>/i, (tag) => `${tag}${bar}`);
    return /<head[^>]*>/i.test(withBar)
      ? withBar.replace(/<head[^>]*>/i, (tag) => `${tag}${head}`)
      : `<!doctype html><html><head>${head}</head>${withBar}</html>`;
  }
  return `<!doctype html><html><head>${head}</head><body>${bar}${html}</body></html>`;
}

function gonePage(lang: Language): string {
  return hostedPage(
    lang,
    t(lang, 'view.gone.title'),
    `<h1>${t(lang, 'view.gone.heading')}</h1><p>${t(lang, 'view.gone.body')}</p>`,
  );
}

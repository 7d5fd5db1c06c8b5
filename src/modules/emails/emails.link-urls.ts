// The links a message carries, built with the base URL the message uses: the one-click unsubscribe link and the
// base of its tracking links (the sender domain's verified tracking host, else PUBLIC_URL).
import type { Config } from '../../config.ts';
import type { AppContext, Secrets } from '../../context.types.ts';
import { createUnsubscribeToken, createViewToken } from '../../mail/links.ts';
import { verifiedTrackingHost, type DomainRow } from '../domains/index.ts';

/** What signing a message's links needs of the context. */
export interface LinkSigning {
  config: Pick<Config, 'publicUrl'>;
  secrets: Pick<Secrets, 'appSecret'>;
}

/** The one-click unsubscribe URL of a message (List-Unsubscribe and `{{unsubscribeUrl}}`). */
export function unsubscribeUrlFor(
  ctx: LinkSigning,
  email: { projectId: string; contactId: string | null; id: string; sourceType: string; sourceId: string | null },
  baseUrl = ctx.config.publicUrl,
): string | undefined {
  if (!email.contactId) return undefined;
  const token = createUnsubscribeToken(ctx.secrets.appSecret, {
    projectId: email.projectId,
    contactId: email.contactId,
    emailId: email.id,
    ...(email.sourceType === 'CAMPAIGN' && email.sourceId ? { campaignId: email.sourceId } : {}),
  });
  return `${baseUrl}/unsubscribe/${token}`;
}

/** The page showing the message in a browser (`{{viewInBrowserUrl}}`), for as long as its content is kept. */
export function viewUrlFor(ctx: LinkSigning, emailId: string, baseUrl = ctx.config.publicUrl): string {
  return `${baseUrl}/v/${createViewToken(ctx.secrets.appSecret, { emailId })}`;
}

/**
 * Where the links of mail signed by `domain` point: its verified custom tracking host (with PUBLIC_URL's scheme,
 * so a local http setup stays http), else PUBLIC_URL.
 */
export function linkBaseFor(ctx: AppContext, domain: Pick<DomainRow, 'records'>): string {
  const host = verifiedTrackingHost(domain);
  return host ? `${new URL(ctx.config.publicUrl).protocol}//${host}` : ctx.config.publicUrl;
}

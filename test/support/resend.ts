/**
 * The official Resend Node SDK pointed at a Herald app listening on a real port:
 *
 *   const resend = await listeningResend(m.t.app, sender.project.secretKey);
 *   const { data, error } = await resend.emails.send({...});
 *   const { forward, backward } = await walkResendList((page) => resend.segments.list(page));
 */
import type { FastifyInstance } from 'fastify';
import { Resend, type PaginationOptions } from 'resend';
import { expect } from 'vitest';

/** The base URL of Herald's Resend API on an app (listening on a free port first if it is not yet). */
export async function resendBaseUrl(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}/resend`;
}

/** A Resend client with a Herald key, talking to `app`. */
export async function listeningResend(app: FastifyInstance, key: string): Promise<Resend> {
  return new Resend(key, { baseUrl: await resendBaseUrl(app) });
}

/** Every id of a Resend list, walked with `after` from the start, then back with `before` from its last item. */
export async function walkResendList(
  list: (page: PaginationOptions) => Promise<{
    data: { has_more: boolean; data: { id: string }[] } | null;
    error: unknown;
  }>,
): Promise<{ forward: string[]; backward: string[] }> {
  const forward: string[] = [];
  for (let after: string | undefined; ; ) {
    const page = await list(after ? { limit: 2, after } : { limit: 2 });
    expect(page.error).toBeNull();
    forward.push(...page.data!.data.map((item) => item.id));
    if (!page.data!.has_more) break;
    after = forward.at(-1);
  }
  // From the last item back to the first: the pages before it, the last one itself appended.
  const backward: string[] = forward.slice(-1);
  for (let before = forward.at(-1); before; ) {
    const page = await list({ limit: 2, before });
    expect(page.error).toBeNull();
    backward.unshift(...page.data!.data.map((item) => item.id));
    before = page.data!.has_more ? backward[0] : undefined;
  }
  return { forward, backward };
}

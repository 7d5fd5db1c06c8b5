/**
 * The official Resend Node SDK pointed at a Herald app listening on a real port:
 *
 *   const resend = await listeningResend(m.t.app, sender.project.secretKey);
 *   const { data, error } = await resend.emails.send({...});
 */
import type { FastifyInstance } from 'fastify';
import { Resend } from 'resend';

/** The base URL of Herald's Resend API on an app (listening on a free port first if it is not yet). */
export async function resendBaseUrl(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}/resend`;
}

/** A Resend client with a Herald key, talking to `app`. */
export async function listeningResend(app: FastifyInstance, key: string): Promise<Resend> {
  return new Resend(key, { baseUrl: await resendBaseUrl(app) });
}

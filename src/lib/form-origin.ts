// The one check every form of a hosted page (preference centre, confirmation, resubscribe) makes before it
// changes anything: a form posted from another site is refused (CSRF). The token in the URL stays the credential.
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * Whether a browser says the form came from another site. Browsers that send `Sec-Fetch-Site` are believed: a
 * form of the page itself is `same-origin` (`none` when a person made the request), anything else (`same-site`,
 * `cross-site`) is refused. Older browsers send `Origin` with every POST; the hosted pages' `Referrer-Policy:
 * same-origin` makes it the real origin for their own forms, so it must name this host — `null` (a sandboxed
 * frame, or a page that withholds its origin) is refused. With neither header (scripts, mail clients holding the
 * link) the token decides alone.
 */
export function postedFromElsewhere(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== '') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (!origin) return false;
  if (origin === 'null') return true;
  try {
    const from = new URL(origin);
    // Through the same URL parser, so a default port written in Host (":443") compares equal.
    return from.host !== new URL(`${from.protocol}//${request.headers.host ?? ''}`).host;
  } catch {
    return true;
  }
}

/** Throws 403 FORBIDDEN for a form posted from another site (see postedFromElsewhere). */
export function refuseFormFromElsewhere(request: FastifyRequest): void {
  if (postedFromElsewhere(request)) throw new AppError('FORBIDDEN', 'This form can only be posted from its own page');
}

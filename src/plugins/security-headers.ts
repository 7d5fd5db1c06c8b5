// Response headers that keep browsers from misusing what Herald serves: no page can be framed (clickjacking),
// no type is guessed, no URL leaks in a Referer, and each kind of HTML page gets a Content-Security-Policy that
// allows only what that page needs, as defence in depth against injected markup. Set in one place, here, for
// every response (errors and 404s too), so no route can forget them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HOSTED_PAGE_STYLE_SOURCE } from '../lib/hosted-page.ts';
import { DOCS_PATH } from './openapi.ts';

/** What a route serves to browsers (its `config.page`); HTML of a route without one is a hosted page. */
export type PageKind = 'dashboard' | 'docs' | 'hosted' | 'email' | 'form';

const policy = (directives: Record<string, string>) =>
  Object.entries(directives)
    .map(([name, value]) => (value ? `${name} ${value}` : name))
    .join('; ');

/** Never framed, no <base>, no plugins: every policy ends with these. */
const LOCKED = { 'object-src': "'none'", 'base-uri': "'none'", 'frame-ancestors': "'none'" };

export const CONTENT_SECURITY_POLICIES: Record<PageKind | 'api' | 'email-images', string> = {
  // JSON, images, redirects: nothing in them may load or run anything if a browser renders one.
  api: policy({ 'default-src': "'none'", ...LOCKED, 'form-action': "'none'" }),
  // The single-page app: its own scripts and styles only. Inline styles are allowed for the template preview,
  // an email rendered in a sandboxed srcdoc frame (which inherits this policy), as are its https images;
  // scripts never run inline, and the frame itself runs none (sandbox).
  dashboard: policy({
    'default-src': "'self'",
    'script-src': "'self'",
    'style-src': "'self' 'unsafe-inline'",
    'img-src': "'self' data: https:",
    'connect-src': "'self'",
    'font-src': "'self'",
    'frame-src': "'self'",
    'form-action': "'self'",
    ...LOCKED,
  }),
  // Swagger UI: its bundle from /docs/static, the document from /docs/json, requests of "Try it out" to this
  // server; it sets styles inline and draws icons as data: images.
  docs: policy({
    'default-src': "'self'",
    'script-src': "'self'",
    'style-src': "'self' 'unsafe-inline'",
    'img-src': "'self' data:",
    'connect-src': "'self'",
    'font-src': "'self'",
    'form-action': "'self'",
    ...LOCKED,
  }),
  // The pages of links in mail (unsubscribe, invalid or busy link): no script at all, their one style by hash,
  // forms posting back to where they came from, and Herald's favicon (a data: image).
  hosted: policy({
    'default-src': "'none'",
    'style-src': HOSTED_PAGE_STYLE_SOURCE,
    'img-src': 'data:',
    'form-action': "'self'",
    ...LOCKED,
  }),
  // A signup form's hosted page: embeddable in any site's frame by design; its stylesheet and the proof-of-work
  // widget (script, worker and challenge) from this server, nothing from anywhere else. Its form posts here, and the
  // answer may redirect to the form's redirectUrl, whose origin the route adds (formActionTo).
  form: formPolicy([]),
  // An email shown in a browser (its view and share links): the sender's HTML and inline styles, no script, no form,
  // no plugin (sandboxed); its images only when embedded, remote ones once the viewer asks (?images=1).
  email: policy({
    'default-src': "'none'",
    'style-src': "'unsafe-inline'",
    'img-src': 'data:',
    ...LOCKED,
    sandbox: '',
  }),
  'email-images': policy({
    'default-src': "'none'",
    'style-src': "'unsafe-inline'",
    'img-src': 'data: https: http:',
    ...LOCKED,
    sandbox: '',
  }),
};

/** The policy of a form page whose form may end at these origins (a redirect after the post) besides this server. */
function formPolicy(origins: string[]): string {
  return policy({
    'default-src': "'none'",
    'style-src': `${HOSTED_PAGE_STYLE_SOURCE} 'self'`,
    'img-src': 'data:',
    'script-src': "'self'",
    'worker-src': "'self'",
    'connect-src': "'self'",
    'form-action': ["'self'", ...origins].join(' '),
    'object-src': "'none'",
    'base-uri': "'none'",
    'frame-ancestors': '*',
  });
}

const formActionOrigins = new WeakMap<FastifyReply, string>();

/** Lets the form page of this reply post to (and be redirected to) `origin`, its form's redirect target. */
export function formActionTo(reply: FastifyReply, origin: string): void {
  formActionOrigins.set(reply, origin);
}

function kindOf(request: FastifyRequest, reply: FastifyReply): PageKind | 'api' | 'email-images' {
  if (!/^text\/html\b/i.test(String(reply.getHeader('content-type') ?? ''))) return 'api';
  const page = request.routeOptions.config?.page;
  if (page === 'email' && (request.query as { images?: unknown } | undefined)?.images === '1') return 'email-images';
  if (page) return page;
  const path = request.url.split('?')[0]!;
  return path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`) ? 'docs' : 'hosted';
}

/** Adds the headers to every response. Register first, before any route. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const kind = kindOf(request, reply);
    const extra = kind === 'form' ? formActionOrigins.get(reply) : undefined;
    reply.header('Content-Security-Policy', extra ? formPolicy([extra]) : CONTENT_SECURITY_POLICIES[kind]);
    // Only a form page may be framed (frame-ancestors *): X-Frame-Options would forbid it in older browsers.
    if (kind === 'form') reply.removeHeader('X-Frame-Options');
    else reply.header('X-Frame-Options', 'DENY');
    reply.header('X-Content-Type-Options', 'nosniff');
    // A hosted page's forms must carry its real Origin (under no-referrer a browser sends "Origin: null" with a
    // form POST, and the cross-site check could not tell the page's own form from another site's). same-origin
    // still sends no Referer to any other site, so no token leaks; the pages link nowhere else anyway.
    reply.header('Referrer-Policy', kind === 'hosted' || kind === 'form' ? 'same-origin' : 'no-referrer');
    return payload;
  });
}

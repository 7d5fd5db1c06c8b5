import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { registerPublicPlugin } from './auth.ts';
import { acceptsHtml } from '../lib/hosted-page.ts';

export interface DashboardOptions {
  /** The built single-page app: `index.html` and `assets/` (web/dist). */
  root: string;
}

/** The first path segment of a URL or route (`/contacts/:id?x` → `contacts`), '' for `/`. */
export function firstSegment(url: string): string {
  return (
    url
      .split('?')[0]!
      .split('/')
      .find((part) => part !== '') ?? ''
  );
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Herald</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem;
  line-height: 1.5">
<h1>Herald’s dashboard is not built</h1>
<p>The API is running (see <a href="/docs">/docs</a>), but the web dashboard has not been built yet.
Build it with <code>npm run build:web</code> (<code>npm install</code> does it too), then reload this page.</p>
</body></html>
`;

async function sendIndex(root: string, reply: FastifyReply): Promise<FastifyReply> {
  let html: string;
  try {
    html = await readFile(path.join(root, 'index.html'), 'utf8');
  } catch {
    return reply.code(503).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(NOT_BUILT);
  }
  // The page names hashed assets: it must be revalidated after every build, the assets never.
  return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
}

/**
 * Serves the dashboard from the API process: `/` and `/assets/*` as static files, and
 * index.html for any other GET that asks for HTML outside the API's own paths, so client-side routes
 * survive a reload. API routes keep priority (they are more specific than the catch-all), and a path
 * under an API segment (`/contacts/…`, `/v1/…`) keeps the JSON 404. Register before the modules: it
 * learns the API's segments from the routes registered after it.
 */
export async function registerDashboard(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const apiSegments = new Set<string>();
  app.addHook('onRoute', (route) => {
    const segment = firstSegment(route.url ?? route.path);
    if (segment !== '' && segment !== '*') apiSegments.add(segment);
  });

  await registerPublicPlugin(app, fastifyStatic, {
    root: path.join(options.root, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: '365d',
    suppressWarning: true,
  });

  const config = { page: 'dashboard', auth: 'none' } as const;
  app.get('/', { schema: { hide: true }, config }, (_request, reply) => sendIndex(options.root, reply));

  app.get('/*', { schema: { hide: true }, config }, (request, reply) => {
    if (apiSegments.has(firstSegment(request.url)) || !acceptsHtml(request)) return reply.callNotFound();
    return sendIndex(options.root, reply);
  });
}

/**
 * Every response carries the headers that keep browsers from misusing it: never framed (X-Frame-Options and
 * frame-ancestors), no type sniffing, no Referer to another site, and a Content-Security-Policy for its kind of
 * page — the dashboard, the API reference at /docs, the small pages of links in mail, and everything else (JSON,
 * images).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnsubscribeToken } from '../../../src/mail/links.ts';
import { APP_SECRET, createTestApp, type TestApp } from '../../support/app.ts';

const browser = { accept: 'text/html,application/xhtml+xml' };

/** The directives of a response's policy, by name. */
function cspOf(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header, `${res.statusCode} ${String(res.headers['content-type'])}`).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('security headers on every kind of response', () => {
  let t: TestApp;
  let dir: string;
  let unsubscribePath: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-web-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><title>Herald</title><script type="module" ' +
        'src="/assets/index-abc.js"></script><div id="root"></div>',
    );
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log("app")');
    t = await createTestApp({ dashboardDir: dir, env: { PUBLIC_URL: 'https://mail.herald.test' } });
    const project = await t.createProject();
    const contact = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: project.auth,
      payload: { email: 'reader@dest.test' },
    });
    const token = createUnsubscribeToken(APP_SECRET, { projectId: project.id, contactId: contact.json().data.id });
    unsubscribePath = `/unsubscribe/${token}`;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('forbids framing, sniffing and referrers everywhere, errors and assets included', async () => {
    const requests = [
      { url: '/', headers: browser },
      { url: '/app/contacts', headers: browser },
      { url: '/assets/index-abc.js' },
      { url: '/docs', headers: browser },
      { url: '/docs/json' },
      { url: '/openapi.json' },
      { url: '/healthz' },
      { url: '/contacts' },
      { url: '/no-such-thing' },
      { url: '/t/o/x.y' },
      { url: '/t/c/x.y' },
      { url: '/t/c/x.y', headers: browser, hosted: true },
      { url: unsubscribePath, headers: browser, hosted: true },
      { url: '/unsubscribe/x.y', headers: browser, hosted: true },
      {
        method: 'POST' as const,
        url: unsubscribePath,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
        hosted: true,
      },
    ];
    for (const { hosted, ...request } of requests) {
      const res = await t.app.inject(request);
      const where = `${request.method ?? 'GET'} ${request.url} → ${res.statusCode}`;
      expect(res.headers['x-frame-options'], where).toBe('DENY');
      expect(res.headers['x-content-type-options'], where).toBe('nosniff');
      // The pages of links in mail send a Referer to their own origin only, so their forms carry a real Origin.
      expect(res.headers['referrer-policy'], where).toBe(hosted ? 'same-origin' : 'no-referrer');
      const csp = cspOf(res);
      expect(csp.get('frame-ancestors'), where).toEqual(["'none'"]);
      expect(csp.get('object-src'), where).toEqual(["'none'"]);
      expect(csp.get('base-uri'), where).toEqual(["'none'"]);
      // Nothing anywhere runs inline script or eval.
      for (const directive of ['default-src', 'script-src']) {
        expect(csp.get(directive) ?? [], where).not.toContain("'unsafe-inline'");
        expect(csp.get(directive) ?? [], where).not.toContain("'unsafe-eval'");
      }
    }
  });

  it('lets JSON, images and redirects load nothing at all', async () => {
    for (const url of ['/healthz', '/contacts', '/t/o/x.y', '/t/c/x.y']) {
      const csp = cspOf(await t.app.inject({ url }));
      expect(csp.get('default-src'), url).toEqual(["'none'"]);
    }
  });

  it('gives the dashboard its own scripts and nothing else to run', async () => {
    for (const url of ['/', '/app/contacts/0190-some-id']) {
      const res = await t.app.inject({ url, headers: browser });
      expect(res.statusCode).toBe(200);
      const csp = cspOf(res);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('connect-src'), url).toEqual(["'self'"]);
    }
  });

  it(
    'gives the API reference only what Swagger UI needs: its scripts from /docs, its ' + 'document and this server',
    async () => {
      const res = await t.app.inject({ url: '/docs', headers: browser });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const csp = cspOf(res);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
      // Its page has no inline script for the policy to have to allow.
      expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    },
  );

  it(
    'runs no script on the pages of links in mail, allows their one style by hash, ' +
      'and posts their form back to where it came from',
    async () => {
      const pages = [
        await t.app.inject({ url: unsubscribePath, headers: browser }),
        await t.app.inject({ url: '/t/c/x.y', headers: browser }),
        await t.app.inject({ url: '/unsubscribe/x.y', headers: browser }),
      ];
      for (const res of pages) {
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        const csp = cspOf(res);
        expect(csp.get('default-src')).toEqual(["'none'"]);
        expect(csp.has('script-src')).toBe(false);
        expect(csp.get('form-action')).toEqual(["'self'"]);
        const styles = [...res.body.matchAll(/<style>([^<]*)<\/style>/g)].map(
          (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
        );
        expect(styles).toHaveLength(1);
        expect(csp.get('style-src')).toEqual(styles);
        expect(res.body).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
      }
      // The form's action resolves to the page's own URL, whatever host served it.
      const action = /<form method="post" action="([^"]+)"/.exec(pages[0]!.body)![1]!;
      const served = new URL(`https://links.example.test${unsubscribePath}`);
      expect(new URL(action, served).href).toBe(served.href);
      const post = await t.app.inject({
        method: 'POST',
        url: new URL(action, served).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(post.statusCode).toBe(200);
      expect(post.body).toContain('You are unsubscribed');
      expect(cspOf(post).get('default-src')).toEqual(["'none'"]);
    },
  );
});

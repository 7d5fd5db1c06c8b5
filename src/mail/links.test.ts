import { describe, expect, it } from 'vitest';
import {
  createClickToken,
  createOpenToken,
  createUnsubscribeToken,
  decodeClickToken,
  decodeOpenToken,
  decodeUnsubscribeToken,
  linkAt,
  redirectTarget,
  rewriteHtmlForTracking,
  signToken,
  verifyToken,
} from './links.ts';

const SECRET = 'test-app-secret-with-enough-entropy-0001';
const BASE = 'https://herald.example.com';
const UNSUB = 'https://herald.example.com/u/tok123';

function clickTokens(html: string): string[] {
  return [...html.matchAll(/\/t\/c\/([A-Za-z0-9_.-]+)"/g)].map((m) => m[1] ?? '');
}

describe('tokens', () => {
  it('round-trip per purpose and are refused under another purpose or secret', () => {
    const t = signToken(SECRET, 'open', { e: 'em_1' });
    expect(verifyToken(SECRET, 'open', t)).toEqual({ e: 'em_1' });
    expect(verifyToken(SECRET, 'click', t)).toBeNull();
    expect(verifyToken(SECRET, 'unsubscribe', t)).toBeNull();
    expect(verifyToken('other-secret', 'open', t)).toBeNull();
    expect(t).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('reject malformed input', () => {
    for (const bad of ['', '.', 'abc', 'a.b.c', '.sig', 'x'.repeat(10_000) + '.y']) {
      expect(verifyToken(SECRET, 'open', bad)).toBeNull();
    }
  });

  it('click token: tampering with link index, destination or signature → rejected (no open redirect)', () => {
    const token = createClickToken(SECRET, 'em_1', 3);
    expect(decodeClickToken(SECRET, token)).toEqual({ emailId: 'em_1', index: 3 });
    const [body, sig] = token.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify({ e: 'em_1', u: 'https://evil.example/' })).toString('base64url');
    expect(decodeClickToken(SECRET, `${forgedBody}.${sig}`)).toBeNull();
    const otherLink = Buffer.from(JSON.stringify({ e: 'em_1', i: 4 })).toString('base64url');
    expect(decodeClickToken(SECRET, `${otherLink}.${sig}`)).toBeNull();
    // Tokens of earlier releases carried the URL itself; links already in mailboxes keep working.
    expect(decodeClickToken(SECRET, signToken(SECRET, 'click', { e: 'em_1', u: 'https://shop.example/a' }))).toEqual({
      emailId: 'em_1',
      url: 'https://shop.example/a',
    });
    expect(decodeClickToken(SECRET, signToken(SECRET, 'click', { e: 'em_1', i: -1 }))).toBeNull();
    const flipped = sig.slice(0, 5) + (sig[5] === 'A' ? 'B' : 'A') + sig.slice(6);
    expect(decodeClickToken(SECRET, `${body}.${flipped}`)).toBeNull();
    expect(decodeClickToken(SECRET, `${body}.${sig.slice(0, -2)}`)).toBeNull();
    // Only the canonical encoding is accepted: the last character also carries 4 unused bits.
    const lastBits = sig.slice(0, -1) + String.fromCharCode(sig.charCodeAt(sig.length - 1) ^ 1);
    expect(decodeClickToken(SECRET, `${body}.${lastBits}`)).toBeNull();
    // A validly signed but non-http destination is still refused.
    expect(decodeClickToken(SECRET, signToken(SECRET, 'click', { e: 'em_1', u: 'javascript:alert(1)' }))).toBeNull();
    // An unsubscribe/open token is never a click token.
    expect(decodeClickToken(SECRET, createOpenToken(SECRET, 'em_1'))).toBeNull();
  });

  it('open and unsubscribe tokens', () => {
    expect(decodeOpenToken(SECRET, createOpenToken(SECRET, 'em_9'))).toEqual({ emailId: 'em_9' });
    const u = createUnsubscribeToken(SECRET, { projectId: 'p1', contactId: 'c1', campaignId: 'cmp1' });
    expect(decodeUnsubscribeToken(SECRET, u)).toEqual({ projectId: 'p1', contactId: 'c1', campaignId: 'cmp1' });
    expect(decodeUnsubscribeToken(SECRET, createClickToken(SECRET, 'e', 0))).toBeNull();
  });
});

describe('rewriteHtmlForTracking', () => {
  const html = [
    '<html><body>',
    '<a href="https://shop.example/p?x=1&amp;y=2">double</a>',
    "<a class='btn' href='http://blog.example/post'>single</a>",
    '<a href=https://bare.example/>bare</a>',
    `<a href="${UNSUB}">Unsubscribe</a>`,
    '<a href="mailto:help@example.com">mail</a>',
    '<a href="tel:+3212345">call</a>',
    '<a href="#top">anchor</a>',
    '<a title="a > b" href="https://gt.example/">gt in attr</a>',
    '<A HREF="HTTPS://UPPER.EXAMPLE/">upper</A>',
    '</body></html>',
  ].join('\n');

  it('rewrites http(s) links to signed redirects and leaves unsubscribe, mailto, tel and fragments alone', () => {
    const out = rewriteHtmlForTracking({
      html,
      emailId: 'em_1',
      baseUrl: `${BASE}/`,
      secret: SECRET,
      opens: false,
      clicks: true,
      unsubscribeUrl: UNSUB,
    });
    const tokens = clickTokens(out);
    // Each token names its link by index in the original body, where linkAt finds the destination again
    // (serialised as a browser would: the scheme and host in lower case).
    const claims = tokens.map((t) => decodeClickToken(SECRET, t));
    expect(claims.map((c) => (c && 'index' in c ? c.index : null))).toEqual([0, 1, 2, 7, 8]);
    expect(claims.map((c) => (c && 'index' in c ? linkAt(html, c.index) : null))).toEqual([
      'https://shop.example/p?x=1&y=2',
      'http://blog.example/post',
      'https://bare.example/',
      'https://gt.example/',
      'https://upper.example/',
    ]);
    expect(tokens.every((t) => decodeClickToken(SECRET, t)?.emailId === 'em_1')).toBe(true);
    expect(out).toContain(`<a href="${UNSUB}">Unsubscribe</a>`);
    expect(out).toContain('<a href="mailto:help@example.com">mail</a>');
    expect(out).toContain('<a href="tel:+3212345">call</a>');
    expect(out).toContain('<a href="#top">anchor</a>');
    expect(out).toContain("<a class='btn' href=\"https://herald.example.com/t/c/");
    expect(out).toContain('title="a > b"');
    expect(out).not.toContain('/t/o/');
  });

  it('skips the unsubscribe link even when HTML-encoded, links already tracked, and given prefixes', () => {
    const src =
      '<a href="https://herald.example.com/u/tok?a=1&amp;b=2">u</a><a ' +
      'href="https://herald.example.com/t/c/abc.def">t</a><a ' +
      'href="https://prefs.example/x">p</a>';
    const out = rewriteHtmlForTracking({
      html: src,
      emailId: 'e',
      baseUrl: BASE,
      secret: SECRET,
      opens: false,
      clicks: true,
      unsubscribeUrl: 'https://herald.example.com/u/tok?a=1&b=2',
      skipPrefixes: ['https://prefs.example/'],
    });
    expect(out).toBe(src);
  });

  it('appends the open pixel before </body>, or at the end without one', () => {
    const out = rewriteHtmlForTracking({
      html,
      emailId: 'em_2',
      baseUrl: BASE,
      secret: SECRET,
      opens: true,
      clicks: false,
    });
    const m =
      /<img src="https:\/\/herald\.example\.com\/t\/o\/([^"]+)" width="1" height="1" alt=""[^>]*>\n?<\/body>/.exec(out);
    expect(m).not.toBeNull();
    expect(decodeOpenToken(SECRET, m?.[1] ?? '')).toEqual({ emailId: 'em_2' });
    expect(clickTokens(out)).toEqual([]);
    const bare = rewriteHtmlForTracking({
      html: '<p>hi</p>',
      emailId: 'e',
      baseUrl: BASE,
      secret: SECRET,
      opens: true,
      clicks: true,
    });
    expect(bare.startsWith('<p>hi</p><img src="https://herald.example.com/t/o/')).toBe(true);
  });

  it('changes nothing with both switches off', () => {
    expect(
      rewriteHtmlForTracking({ html, emailId: 'e', baseUrl: BASE, secret: SECRET, opens: false, clicks: false }),
    ).toBe(html);
  });

  it('keeps click links short whatever the URL length, and linkAt reads them back', () => {
    const long = `https://shop.example/landing?${'q=x'.repeat(4000)}`;
    const out = rewriteHtmlForTracking({
      html: `<a href="mailto:a@b.c">m</a><a href="${long}">long</a>`,
      emailId: '01900000-0000-7000-8000-000000000000',
      baseUrl: BASE,
      secret: SECRET,
      opens: false,
      clicks: true,
    });
    const [token] = clickTokens(out);
    expect(token!.length).toBeLessThan(200);
    const claims = decodeClickToken(SECRET, token!);
    expect(claims).toEqual({ emailId: '01900000-0000-7000-8000-000000000000', index: 1 });
    expect(linkAt(`<a href="mailto:a@b.c">m</a><a href="${long}">long</a>`, 1)).toBe(long);
    expect(linkAt('<a href="mailto:a@b.c">m</a>', 0)).toBeNull();
    expect(linkAt('<a href="https://x.example/">m</a>', 5)).toBeNull();
  });

  it(
    'redirects only to URLs a Location header can carry: non-ASCII percent-encoded, ' +
      'newlines dropped, IDN in punycode',
    () => {
      expect(redirectTarget('https://example.com/日本?q=€')).toBe('https://example.com/%E6%97%A5%E6%9C%AC?q=%E2%82%AC');
      expect(redirectTarget(' https://exa\nmple.com/a\r\nb ')).toBe('https://example.com/ab');
      expect(redirectTarget('https://bücher.example/')).toBe('https://xn--bcher-kva.example/');
      for (const bad of ['javascript:alert(1)', 'mailto:a@b.c', 'https://exa mple.com/', '/relative', ''])
        expect(redirectTarget(bad), bad).toBeNull();
    },
  );
});

import { describe, expect, it } from 'vitest';
import { classifyClick, classifyOpen, INSTANT_CLICK_MS } from './engagement.ts';

const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';
const sentAt = new Date('2026-01-01T10:00:00Z');
const later = new Date(sentAt.getTime() + 60_000);

describe('opens', () => {
  it('a mail client fetching the pixel is a person', () => {
    expect(classifyOpen({ method: 'GET', ip: '203.0.113.9', userAgent: browser, sentAt })).toBeNull();
    expect(
      classifyOpen({
        method: 'GET',
        ip: '66.249.84.1',
        userAgent: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
        sentAt,
      }),
    ).toBeNull();
  });
  it(
    "Apple Mail Privacy Protection: Apple's 17.0.0.0/8 with a generic agent is a " +
      "machine; Apple's network with a full agent is a person",
    () => {
      expect(classifyOpen({ method: 'GET', ip: '17.58.101.22', userAgent: 'Mozilla/5.0', sentAt })).toBe('APPLE_MPP');
      expect(classifyOpen({ method: 'GET', ip: '::ffff:17.1.2.3', userAgent: 'Mozilla/5.0', sentAt })).toBe(
        'APPLE_MPP',
      );
      expect(classifyOpen({ method: 'GET', ip: '17.58.101.22', userAgent: browser, sentAt })).toBeNull();
      expect(classifyOpen({ method: 'GET', ip: '170.58.101.22', userAgent: 'Mozilla/5.0', sentAt })).toBeNull();
    },
  );
  it('an image proxy that fetches on receipt is a machine', () => {
    expect(
      classifyOpen({
        method: 'GET',
        ip: '98.136.1.1',
        userAgent: 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
        sentAt,
      }),
    ).toBe('PREFETCH_PROXY');
  });
  it("a scanner's agent, no agent, or a HEAD request is a machine", () => {
    expect(classifyOpen({ method: 'GET', ip: '198.51.100.1', userAgent: 'Barracuda Sentinel (EE)', sentAt })).toBe(
      'SCANNER_AGENT',
    );
    expect(classifyOpen({ method: 'GET', ip: '198.51.100.1', userAgent: undefined, sentAt })).toBe('NO_AGENT');
    expect(classifyOpen({ method: 'HEAD', ip: '198.51.100.1', userAgent: browser, sentAt })).toBe('HEAD_REQUEST');
  });
});

describe('clicks', () => {
  it('a browser following the link a while after the handoff is a person', () => {
    expect(classifyClick({ method: 'GET', ip: '17.1.1.1', userAgent: browser, sentAt, now: later })).toBeNull();
    expect(
      classifyClick({ method: 'GET', ip: '203.0.113.9', userAgent: browser, sentAt: null, now: later }),
    ).toBeNull();
  });
  it('a HEAD request is a scanner checking the link', () => {
    expect(classifyClick({ method: 'HEAD', ip: '203.0.113.9', userAgent: browser, sentAt, now: later })).toBe(
      'HEAD_REQUEST',
    );
  });
  it("a known scanner's or an HTTP library's agent, or none, is a machine", () => {
    for (const agent of [
      'Mozilla/5.0 (compatible; Proofpoint URL Defense)',
      'python-requests/2.31.0',
      'curl/8.4.0',
      'Go-http-client/1.1',
      'Mimecast',
      'Mozilla/5.0 HeadlessChrome/120',
    ]) {
      expect(classifyClick({ method: 'GET', ip: '203.0.113.9', userAgent: agent, sentAt, now: later }), agent).toBe(
        'SCANNER_AGENT',
      );
    }
    expect(classifyClick({ method: 'GET', ip: '203.0.113.9', userAgent: '  ', sentAt, now: later })).toBe('NO_AGENT');
  });
  it(
    `a click within ${INSTANT_CLICK_MS / 1000} s of the handoff is ` +
      `a scanner's; at ${INSTANT_CLICK_MS / 1000} s it is a person's`,
    () => {
      expect(
        classifyClick({
          method: 'GET',
          ip: '203.0.113.9',
          userAgent: browser,
          sentAt,
          now: new Date(sentAt.getTime() + INSTANT_CLICK_MS - 1),
        }),
      ).toBe('INSTANT_CLICK');
      expect(
        classifyClick({
          method: 'GET',
          ip: '203.0.113.9',
          userAgent: browser,
          sentAt,
          now: new Date(sentAt.getTime() + INSTANT_CLICK_MS),
        }),
      ).toBeNull();
    },
  );
});

// The inbound listener of a real `herald serve` (a child process under the production heap limit of 1 GB) takes
// the largest messages it advertises, one alone and then three at once, and stays up: each message is stored
// whole or answered 4xx (the sender tries again), never lost, never a crash. Its /healthz answers throughout.
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { bigMessage } from '../../support/big-message.ts';
import { freePort } from '../../support/child.ts';
import { crashWorld } from '../../support/crash.ts';

const MB = 1024 * 1024;

describe('inbound messages of the largest size, into a child process', () => {
  let inboundPort = 0;
  const world = crashWorld(
    async () => {
      inboundPort = await freePort();
      return {
        INBOUND_SMTP_PORT: String(inboundPort),
        INBOUND_SMTP_HOST: '127.0.0.1',
        NODE_OPTIONS: '--max-old-space-size=1024',
      };
    },
    { sink: false },
  );

  /** Sends `raw` until it is taken: a 4xx (too much in flight) is tried again, as a sending server would. */
  async function deliver(raw: Buffer, to: string): Promise<{ response: string; deferred: number }> {
    const client = nodemailer.createTransport({
      host: '127.0.0.1',
      port: inboundPort,
      secure: false,
      ignoreTLS: true,
      socketTimeout: 300_000,
    });
    let deferred = 0;
    try {
      for (;;) {
        try {
          const info = await client.sendMail({ envelope: { from: 'big@sender.test', to: [to] }, raw });
          return { response: info.response, deferred };
        } catch (error) {
          const code = (error as { responseCode?: number }).responseCode;
          if (code === undefined || code >= 500) throw error;
          expect((error as { response: string }).response).toMatch(/^451 4\.3\.1 /);
          deferred += 1;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    } finally {
      client.close();
    }
  }

  it(
    'stores a 24 MB message, then three 20 MB messages sent at once, and keeps answering',
    { timeout: 600_000 },
    async () => {
      const { h, dns } = world;
      await h.start();
      const auth = await h.projectWithDomain(dns, 'big.test');
      const domain = (await h.api('GET', '/domains', undefined, auth)).body.data.items[0];
      expect((await h.api('PATCH', `/domains/${domain.id}`, { receiving: true }, auth)).status).toBe(200);

      let answers = 0;
      let probing = true;
      const probe = (async () => {
        while (probing) {
          expect((await h.api('GET', '/healthz')).status).toBe(200);
          answers += 1;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();

      const first = bigMessage({
        bytes: 24 * MB,
        textBytes: 2 * MB,
        from: 'big@sender.test',
        to: 'one@big.test',
        subject: 'Twenty-four',
      });
      expect((await deliver(first, 'one@big.test')).response).toMatch(/^250 /);
      const afterFirst = answers;
      const three = await Promise.all(
        [1, 2, 3].map((i) =>
          deliver(
            bigMessage({
              bytes: 20 * MB,
              textBytes: MB,
              from: 'big@sender.test',
              to: `many${i}@big.test`,
              subject: `Twenty ${i}`,
            }),
            `many${i}@big.test`,
          ),
        ),
      );
      probing = false;
      await probe;
      expect(three.map((r) => r.response)).toEqual([
        expect.stringMatching(/^250 /),
        expect.stringMatching(/^250 /),
        expect.stringMatching(/^250 /),
      ]);
      // The process answered while it read, authenticated and stored them (work that runs off its event loop).
      expect(afterFirst).toBeGreaterThan(0);
      expect(answers).toBeGreaterThan(afterFirst);

      const list = (await h.api('GET', '/inbound?limit=10', undefined, auth)).body.data;
      expect(list.items.map((m: { subject: string }) => m.subject).sort()).toEqual([
        'Twenty 1',
        'Twenty 2',
        'Twenty 3',
        'Twenty-four',
      ]);
      const big = list.items.find((m: { subject: string }) => m.subject === 'Twenty-four');
      expect(big.size).toBe(first.length);
      const detail = (await h.api('GET', `/inbound/${big.id}`, undefined, auth)).body.data;
      expect(detail.truncated).toEqual({ text: true, html: true });
      expect(Buffer.byteLength(detail.text)).toBeLessThanOrEqual(MB);
      const raw = await fetch(`${h.url}/inbound/${big.id}/raw`, { headers: { authorization: auth } });
      expect(Buffer.from(await raw.arrayBuffer()).equals(first)).toBe(true);
    },
  );
});

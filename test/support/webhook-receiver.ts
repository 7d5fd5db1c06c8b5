/**
 * A real HTTP server that receives webhooks in tests: it records every request (headers and raw body) and
 * answers with the statuses it is told to, in order, then 200.
 *
 *   const hook = await startWebhookReceiver();
 *   hook.failNext(500, 500);            // the next two requests get 500
 *   const [first] = await hook.waitFor(1);
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; createdAt: string; data: Record<string, unknown> };
  at: Date;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  failNext(...statuses: number[]): void;
  waitFor(count: number, timeoutMs?: number, filter?: (w: ReceivedWebhook) => boolean): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(opts: { port?: number; path?: string } = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: ReceivedWebhook['json'];
      try {
        json = JSON.parse(body) as ReceivedWebhook['json'];
      } catch {
        json = { type: 'unparseable', createdAt: '', data: {} };
      }
      received.push({ headers: req.headers, body, json, at: new Date() });
      res.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${opts.path ?? '/hooks'}`,
    port,
    received,
    failNext: (...codes) => statuses.push(...codes),
    async waitFor(count, timeoutMs = 20_000, filter = () => true) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > end) throw new Error(`received ${matching.length} of ${count} webhooks: ${received.map((r) => r.json.type).join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

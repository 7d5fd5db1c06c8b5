/**
 * A real HTTP server that receives webhooks in tests: it records every request (headers and raw body) and
 * answers with the statuses it is told to, in order, then 200. `hold()` makes it a slow receiver: requests are
 * recorded on arrival and answered only at `release()` (or never, when the sender gives up first).
 *
 *   const hook = await startWebhookReceiver();
 *   hook.failNext(500, 500);            // the next two requests get 500
 *   const [first] = await hook.waitFor(1);
 *   hook.hold();                        // from now on, answer nothing…
 *   hook.release();                     // …until now (200 to every open request, and to later ones)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './until.ts';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; createdAt: string; data: Record<string, unknown> };
  at: Date;
  /** When the exchange ended (answered, or the sender closed the connection); null while it is open. */
  endedAt: Date | null;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  failNext(...statuses: number[]): void;
  /** Answer nothing from now on, until release(). */
  hold(): void;
  /** Answer every held request with `status`, and stop holding. */
  release(status?: number): void;
  waitFor(count: number, timeoutMs?: number, filter?: (w: ReceivedWebhook) => boolean): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(opts: { port?: number; path?: string } = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const statuses: number[] = [];
  let holding = false;
  const held: http.ServerResponse[] = [];
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
      const record: ReceivedWebhook = { headers: req.headers, body, json, at: new Date(), endedAt: null };
      res.on('close', () => (record.endedAt = new Date()));
      received.push(record);
      if (holding) held.push(res);
      else res.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${opts.path ?? '/hooks'}`,
    port,
    received,
    failNext: (...codes) => statuses.push(...codes),
    hold: () => (holding = true),
    release(status = 200) {
      holding = false;
      for (const res of held.splice(0))
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    },
    async waitFor(count, timeoutMs = 20_000, filter = () => true) {
      const matching = () => received.filter(filter);
      const types = () => received.map((r) => r.json.type).join(', ');
      return until(
        () => matching().length >= count && matching(),
        () => `received ${matching().length} of ${count} webhooks: ${types()}`,
        timeoutMs,
        50,
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

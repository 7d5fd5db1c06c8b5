/**
 * A real HTTP server in front of a Herald app that records every request and gives the next ones the fates a test
 * plans: answered by the proxy without reaching Herald, passed to Herald with its answer replaced (a lost answer), or
 * dropped (the connection closed with no answer). Requests past the plan go through to Herald untouched.
 *
 *   const proxy = await startFaultProxy(heraldUrl);
 *   proxy.plan({ lose: 503, headers: { 'Retry-After': '1' } });
 *   await client.send(...);   // Herald sends, the client sees a 503, tries again, Herald replays
 *   proxy.seen               // both tries, with their headers
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fate =
  | { answer: number; headers?: Record<string, string> }
  | { lose: number; headers?: Record<string, string> }
  | { drop: true };

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface FaultProxy {
  url: string;
  seen: SeenRequest[];
  /** The fates of the next requests, in order. */
  plan(...fates: Fate[]): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The error envelope Herald answers with, for the proxy's own answers. */
function envelope(status: number): string {
  const code = status === 429 ? 'RATE_LIMIT_EXCEEDED' : status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR';
  const message = `Answered ${status} by the test proxy`;
  const error = { code, message, statusCode: status, requestId: 'proxy' };
  return JSON.stringify({ success: false, message, error, timestamp: new Date().toISOString() });
}

async function forward(target: string, req: http.IncomingMessage, body: Buffer): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers.set(name, value);
  }
  return fetch(`${target}${req.url}`, {
    method: req.method ?? 'GET',
    headers,
    ...(body.length > 0 ? { body } : {}),
  });
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const fates: Fate[] = [];
  const seen: SeenRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const fate = fates.shift();
    try {
      if (fate && 'drop' in fate) return void res.socket?.destroy();
      if (fate && 'answer' in fate) {
        res.writeHead(fate.answer, { 'content-type': 'application/json', ...fate.headers });
        return void res.end(envelope(fate.answer));
      }
      const answer = await forward(target, req, Buffer.concat(chunks));
      const text = await answer.text();
      if (fate && 'lose' in fate) {
        res.writeHead(fate.lose, { 'content-type': 'application/json', ...fate.headers });
        return void res.end(envelope(fate.lose));
      }
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') headers[name] = value;
      });
      res.writeHead(answer.status, headers);
      res.end(text);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    plan: (...next) => void fates.push(...next),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

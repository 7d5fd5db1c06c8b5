// What the request log takes from each request a project makes: its bodies as they pass (the request's before
// validation, the response as sent), then, once the answer has left, one entry handed to the writer.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.types.ts';
import { newId } from '../../lib/ids.ts';
import { keepBody, type KeptBody } from './logs.redact.ts';
import { RequestLogWriter } from './logs.writer.ts';

/** Routes not logged: reading the log itself (its answers would nest the log in the log). */
const NOT_LOGGED = new Set(['/logs', '/logs/:id']);

/** Responses larger than this are not parsed: the entry keeps their size only. */
const MAX_PARSED_RESPONSE = 2 * 1024 * 1024;

const WRITER = Symbol('request log writer');

/** The process's writer of the request log, flushed when the process closes. */
function writerOf(ctx: AppContext): RequestLogWriter {
  return ctx.resources.of(
    WRITER,
    () => new RequestLogWriter(ctx.db, ctx.logger),
    (writer) => writer.flush(),
  );
}

/** Writes the entries waiting in this process now (tests, and whoever needs the log current). */
export function flushRequestLog(ctx: AppContext): Promise<void> {
  return writerOf(ctx).flush();
}

interface Captured {
  body: unknown;
  response: string | null;
}

function logged(request: FastifyRequest): boolean {
  return request.auth !== null && !NOT_LOGGED.has(request.routeOptions.url ?? '');
}

function responseBody(payload: string | null): KeptBody {
  if (payload === null) return { json: null, cut: false };
  if (payload.length > MAX_PARSED_RESPONSE) return { json: null, cut: true };
  try {
    return keepBody(JSON.parse(payload));
  } catch {
    return { json: null, cut: false };
  }
}

function byteCount(header: string | string[] | undefined): number | null {
  const n = typeof header === 'string' ? Number(header) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/**
 * Logs every request authenticated to a project (its keys, or its members signed in) — not the admin API, public
 * pages, tracking links in mail, health, metrics or the dashboard's files, which reach no project. Off with
 * REQUEST_LOG=false.
 */
export function captureRequests(ctx: AppContext, app: FastifyInstance): void {
  if (!ctx.config.requestLog.enabled) return;
  const writer = writerOf(ctx);
  const captured = new WeakMap<FastifyRequest, Captured>();

  app.addHook('preValidation', (request, _reply, done) => {
    if (logged(request)) captured.set(request, { body: request.body, response: null });
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    // A request refused before validation (a rate limit's 429) has its answer kept too.
    if (typeof payload === 'string' && typeof type === 'string' && type.includes('json') && logged(request)) {
      const held = captured.get(request);
      if (held) held.response = payload;
      else captured.set(request, { body: undefined, response: payload });
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (logged(request)) {
      const held = captured.get(request);
      const url = request.routeOptions.url ?? '';
      const sent = keepBody(held?.body, { twoFactor: url.startsWith('/auth/') || url.includes('2fa') });
      const answer = responseBody(held?.response ?? null);
      const actor = request.origin!.actor;
      const agent = request.headers['user-agent'];
      writer.add({
        id: newId(),
        projectId: request.auth!.projectId,
        createdAt: new Date(Date.now() - reply.elapsedTime),
        method: request.method,
        path: request.url.split('?', 1)[0]!.slice(0, 2048),
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
        actorType: actor.type,
        actorId: actor.id,
        actorLabel: actor.label.slice(0, 320),
        ip: request.ip,
        userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null,
        requestId: request.id,
        requestBody: sent.json,
        requestBodyCut: sent.cut,
        requestBytes: byteCount(request.headers['content-length']),
        responseBody: answer.json,
        responseBodyCut: answer.cut,
        responseBytes: held?.response ? Buffer.byteLength(held.response) : null,
      });
    }
    done();
  });
  app.addHook('onClose', async () => writer.flush());
}

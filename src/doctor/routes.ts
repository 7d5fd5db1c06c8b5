// POST /admin/doctor: the checks `herald doctor` cannot make on an embedded database another process holds (its
// migrations and sender domains), made by the server that holds it, for the command run beside it.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.types.ts';
import { AppError } from '../lib/errors.ts';
import { isLoopback } from '../net/loopback.ts';
import { ok } from '../lib/http.ts';
import { rowsInServer } from './migrations.ts';

/** Answers `{rows}`; for the admin token over loopback only, as the command on this machine calls it. */
export function doctorRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/admin/doctor', { config: { auth: 'admin' }, schema: { hide: true } }, async (request) => {
      if (!isLoopback(request.socket.remoteAddress ?? ''))
        throw new AppError('FORBIDDEN', 'The doctor checks answer this machine only', {
          suggestion: 'Run herald doctor on the machine Herald runs on.',
        });
      return ok({ rows: await rowsInServer(ctx) });
    });
  };
}

// POST /admin/backup: the embedded database dumped by the server that holds it, for `herald backup` run beside it
// (the data folder is locked by the server, so the command cannot open it itself).
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import type { AppContext } from '../context.types.ts';
import { AppError } from '../lib/errors.ts';
import { isLoopback } from '../net/loopback.ts';
import { dumpEmbedded } from './embedded.ts';
import { prependLine } from './lines.ts';

/**
 * Answers a JSON line (schema state, APP_SECRET and the admin token), then the data folder's tar. The answer carries
 * the instance's secrets: it is given to the admin token only (not to a signed-in admin's session), over loopback.
 */
export function backupRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/admin/backup', { config: { auth: 'admin' }, schema: { hide: true } }, async (request, reply) => {
      if (!isLoopback(request.socket.remoteAddress ?? ''))
        throw new AppError('FORBIDDEN', 'A backup is given to this machine only', {
          suggestion: 'Run herald backup on the machine Herald runs on.',
        });
      if (!/^bearer\s/i.test(request.headers.authorization ?? ''))
        throw new AppError('FORBIDDEN', 'A backup is given to the admin token only', {
          suggestion: 'Run herald backup, which sends the admin token of DATA_DIR.',
        });
      const pglite = ctx.database.pglite;
      if (!pglite)
        throw new AppError('CONFLICT', 'This Herald runs on PostgreSQL', {
          suggestion: 'herald backup dumps PostgreSQL itself (pg_dump); it needs no server.',
        });
      const { schema, tar } = await dumpEmbedded(pglite);
      const { appSecret, adminToken } = ctx.secrets;
      const line = JSON.stringify({ schema, appSecret, adminToken });
      reply.header('content-type', 'application/octet-stream');
      reply.header('cache-control', 'no-store');
      return Readable.from(prependLine(line, tar.stream() as unknown as AsyncIterable<Uint8Array>));
    });
  };
}

// Crash tests' fault points that sit on HTTP routes, kept out of the route handlers: registered only when
// HERALD_TEST_FAULT names one (never in production). `kill-after-send-commit`: the process dies (SIGKILL) once
// POST /v1/send has committed its emails and stored its Idempotency-Key answer, before the reply leaves.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

export function registerTestFaults(app: FastifyInstance, fault: Config['testFault']): void {
  if (fault !== 'kill-after-send-commit') return;
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url === '/v1/send' && reply.statusCode === 200) process.kill(process.pid, 'SIGKILL');
    return payload;
  });
}

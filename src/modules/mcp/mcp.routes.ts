import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError } from '../../lib/errors.ts';
import { errors } from '../../lib/http.ts';
import { createMcpServer } from './mcp.server.ts';

/** What the API reference says about each MCP route, by operationId. */
const mcpRouteDocs = {
  mcp:
    "JSON-RPC messages of the Model Context Protocol for AI agents. The tools are the calls the key's scope" +
    ' allows; see the MCP guide.',
} as const;

export const MCP_VERSION = '1.0.0';

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (a server per request, JSON answers), with
 * the caller's key as Bearer token. Tools call the API in-process with that same key.
 */
export function mcpRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Every key may connect; which tools it sees follows its scope. The tools act as the caller, so a signed-in member
    // needs the editor role to POST (or DELETE) here; GET only refuses, and a viewer may reach it.
    const config = { auth: 'secret' } as const;
    const scope = ['read', 'sending'] as const;
    const tags = ['MCP'];

    app.post(
      '/mcp',
      {
        config: { ...config, scope, role: 'editor' },
        schema: {
          // JSON-RPC, not REST: the MCP guide (docs/mcp.md) documents it; the reference would only mislead.
          hide: true,
          tags,
          summary: 'Model Context Protocol (Streamable HTTP)',
          operationId: 'mcp',
          description: mcpRouteDocs.mcp,
          body: z.unknown(),
          response: { 200: z.unknown(), ...errors(403) },
        },
      },
      async (request, reply) => {
        // Tools call the API as the caller: with its key, or as the signed-in person (their session, project and CSRF
        // token).
        const { authorization, cookie } = request.headers;
        const caller: Record<string, string> = authorization
          ? { authorization }
          : {
              cookie: cookie ?? '',
              'herald-project': request.auth!.projectId,
              'x-csrf-token': request.signedIn?.csrfToken ?? '',
            };
        const server = await createMcpServer({
          scope: request.auth!.scope,
          version: MCP_VERSION,
          secret: ctx.secrets.appSecret,
          api: async ({ method, url, body }) => {
            const res = await request.server.inject({
              method,
              url,
              headers: { ...caller, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
              ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
            });
            return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : null };
          },
        });
        const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        reply.hijack();
        reply.raw.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      },
    );

    // Stateless: no server-initiated stream to open and no session to end.
    for (const method of ['GET', 'DELETE'] as const) {
      app.route({
        method,
        url: '/mcp',
        config: { ...config, scope, role: method === 'GET' ? 'viewer' : 'editor' },
        schema: {
          hide: true,
          tags,
          summary: method === 'GET' ? 'Open an MCP event stream (not offered)' : 'End an MCP session (not offered)',
          operationId: `mcp${method === 'GET' ? 'Stream' : 'End'}`,
          response: errors(405),
        },
        handler: async () => {
          throw new AppError('METHOD_NOT_ALLOWED', 'This MCP endpoint is stateless: send every message with POST /mcp');
        },
      });
    }
  };
}

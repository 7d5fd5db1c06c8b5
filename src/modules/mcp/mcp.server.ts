// An MCP server over Herald's API for one key: the tools its scope allows, each answered by an in-process API
// call with that key. API errors (validation, scope, not found) come back as tool errors, never as a crash.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { KeyScope } from '../../lib/keys.ts';
import { SEND_CAMPAIGN, sendCampaignTool } from './mcp.send-campaign.ts';
import { TOOLS, type ApiAnswer, type ApiCall } from './mcp.tools.ts';

const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  ...(isError ? { isError } : {}),
});

/** The data of a success, or the API's error message (with its field errors) as a tool error. */
function resultOf(answer: ApiAnswer): CallToolResult {
  const body = answer.body as {
    data?: unknown;
    error?: { code?: string; message?: string; errors?: unknown[] };
  } | null;
  if (answer.status < 300) return text(body && typeof body === 'object' && 'data' in body ? body.data : body);
  const error = body?.error;
  return text(
    {
      status: answer.status,
      code: error?.code,
      message: error?.message ?? `HTTP ${answer.status}`,
      ...(error?.errors ? { errors: error.errors } : {}),
    },
    true,
  );
}

/** Whether a key of `scope` may use a tool admitting `scopes` (full keys use every tool). */
const allowed = (scope: KeyScope, scopes: KeyScope[]) => scope === 'full' || scopes.includes(scope);

/**
 * The MCP server a key of `scope` talks to; `api` makes the tools' calls with that key, `secret` signs confirmations.
 * The MCP library is loaded on the first request: a process no agent talks to never holds it.
 */
export async function createMcpServer(opts: {
  scope: KeyScope;
  api: ApiCall;
  version: string;
  secret: string;
}): Promise<McpServer> {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const server = new McpServer({ name: 'herald', version: opts.version });
  for (const tool of TOOLS) {
    if (!allowed(opts.scope, tool.scopes)) continue;
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input },
      async (args: Record<string, unknown>) => resultOf(await opts.api(tool.request(args))),
    );
  }
  if (allowed(opts.scope, [])) {
    server.registerTool(
      SEND_CAMPAIGN.name,
      { description: SEND_CAMPAIGN.description, inputSchema: SEND_CAMPAIGN.input },
      sendCampaignTool({ api: opts.api, secret: opts.secret, reply: text, resultOf }),
    );
  }
  return server;
}

// An MCP server over Herald's API for one key: the tools its scope allows, each answered by an in-process API
// call with that key. API errors (validation, scope, not found) come back as tool errors, never as a crash.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { KeyScope } from '../../lib/keys.ts';
import { SEND_CAMPAIGN, TOOLS, type ApiRequest } from './mcp.tools.ts';

/** What an API call answered: its status and parsed JSON body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

export type ApiCall = (request: ApiRequest) => Promise<ApiAnswer>;

const text = (value: unknown, isError = false): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], ...(isError ? { isError } : {}) });

/** The data of a success, or the API's error message (with its field errors) as a tool error. */
function resultOf(answer: ApiAnswer): CallToolResult {
  const body = answer.body as { data?: unknown; error?: { code?: string; message?: string; errors?: unknown[] } } | null;
  if (answer.status < 300) return text(body && typeof body === 'object' && 'data' in body ? body.data : body);
  const error = body?.error;
  return text({ status: answer.status, code: error?.code, message: error?.message ?? `HTTP ${answer.status}`, ...(error?.errors ? { errors: error.errors } : {}) }, true);
}

/** Whether a key of `scope` may use a tool admitting `scopes` (full keys use every tool). */
const allowed = (scope: KeyScope, scopes: KeyScope[]) => scope === 'full' || scopes.includes(scope);

/** The MCP server a key of `scope` talks to; `api` makes the tools' calls with that key. */
export function createMcpServer(opts: { scope: KeyScope; api: ApiCall; version: string }): McpServer {
  const server = new McpServer({ name: 'herald', version: opts.version });
  for (const tool of TOOLS) {
    if (!allowed(opts.scope, tool.scopes)) continue;
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input }, async (args: Record<string, unknown>) => resultOf(await opts.api(tool.request(args))));
  }
  if (allowed(opts.scope, [])) {
    server.registerTool(SEND_CAMPAIGN.name, { description: SEND_CAMPAIGN.description, inputSchema: SEND_CAMPAIGN.input }, async ({ campaignId, confirm }) => {
      const url = `/campaigns/${encodeURIComponent(campaignId)}`;
      const campaign = await opts.api({ method: 'GET', url });
      if (campaign.status >= 300) return resultOf(campaign);
      const { recipientCount, status, name } = (campaign.body as { data: { recipientCount: number; status: string; name: string } }).data;
      if (confirm !== true) {
        return text({ sent: false, campaign: name, status, recipientCount, next: `This would send "${name}" to ${recipientCount} contacts. Ask the user to confirm, then call send_campaign again with confirm: true.` }, true);
      }
      const sent = await opts.api({ method: 'POST', url: `${url}/send`, body: {} });
      return sent.status < 300 ? text({ sent: true, campaign: name, recipientCount, ...((sent.body as { data?: object } | null)?.data ?? {}) }) : resultOf(sent);
    });
  }
  return server;
}

// `herald mcp`: the same tools over stdio, for desktop agents (Claude Desktop, Cursor) that start a command. It
// relays every message to a running Herald's POST /mcp with the key, so the tools and their scope are the server's.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MCP_VERSION } from './mcp.routes.ts';

/** Serves MCP on stdin/stdout, relaying to `${url}/mcp` with `apiKey`; resolves once stdin closes. */
export async function serveMcpOverStdio(opts: { url: string; apiKey: string }): Promise<void> {
  const client = new Client({ name: 'herald-mcp-stdio', version: MCP_VERSION });
  const endpoint = new URL(`${opts.url.replace(/\/+$/, '')}/mcp`);
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${opts.apiKey}` } } }));
  const server = new Server({ name: 'herald', version: MCP_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => client.callTool(request.params));
  const closed = new Promise<void>((resolve) => { server.onclose = () => resolve(); });
  await server.connect(new StdioServerTransport());
  await closed;
  await client.close();
}

// `herald mcp`: the same tools over stdio, for desktop agents (Claude Desktop, Cursor) that start a command. It
// relays every message to a running Herald's POST /mcp with the key, so the tools and their scope are the server's.
// The MCP library is loaded when the command runs, not by every process that starts the CLI.
import type { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ConfigError } from '../../config.ts';
import { MCP_VERSION } from './mcp.routes.ts';

/** What went wrong reaching Herald, in the words of the settings that decide it (HERALD_URL, HERALD_API_KEY). */
function connectionProblem(endpoint: URL, error: unknown, refusal: typeof StreamableHTTPError): ConfigError {
  if (error instanceof refusal && (error.code === 401 || error.code === 403)) {
    return new ConfigError(
      `Herald at ${endpoint.href} refused HERALD_API_KEY (HTTP ${error.code}): ` +
        `it is unknown, revoked or expired, or its project is disabled`,
    );
  }
  const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return new ConfigError(`Cannot reach Herald at ${endpoint.href} (HERALD_URL): ${cause}`);
}

/** Serves MCP on stdin/stdout, relaying to `${url}/mcp` with `apiKey`; resolves once stdin closes. */
export async function serveMcpOverStdio(opts: { url: string; apiKey: string }): Promise<void> {
  const [
    { Client },
    { StreamableHTTPClientTransport, StreamableHTTPError: refusal },
    { Server },
    { StdioServerTransport },
    types,
  ] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const { CallToolRequestSchema, ListToolsRequestSchema } = types;
  const client = new Client({ name: 'herald-mcp-stdio', version: MCP_VERSION });
  const endpoint = new URL(`${opts.url.replace(/\/+$/, '')}/mcp`);
  try {
    await client.connect(
      new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: { authorization: `Bearer ${opts.apiKey}` } },
      }),
    );
  } catch (error) {
    throw connectionProblem(endpoint, error, refusal);
  }
  const server = new Server({ name: 'herald', version: MCP_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => client.callTool(request.params));
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await client.close();
}

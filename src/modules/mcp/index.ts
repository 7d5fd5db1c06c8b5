// The front door of the mcp module: the command line's stdio server.
export { serveMcpOverStdio } from './mcp.stdio.ts';

// `burrow mcp`: the MCP server over stdio (MCP "Transports": newline-delimited JSON-RPC on stdin
// and stdout), for MCP clients that start it as a subprocess. Stdout carries only the protocol.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createBurrowMcpServer, type BurrowMcpOptions } from './server.js';

/** Serves until stdin ends (the client closed it) or the transport fails; then resolves. */
export async function runMcpStdio(
  opts: BurrowMcpOptions & { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream }
): Promise<void> {
  const mcp = createBurrowMcpServer(opts);
  const transport = new StdioServerTransport(
    (opts.stdin ?? process.stdin) as Readable,
    (opts.stdout ?? process.stdout) as Writable
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  const stdin = opts.stdin ?? process.stdin;
  await mcp.server.connect(transport);
  // StdioServerTransport does not notice the end of its input by itself.
  stdin.once('end', () => void mcp.close());
  stdin.once('close', () => void mcp.close());
  await closed;
}

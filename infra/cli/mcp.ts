// `burrow mcp`: an MCP server on stdin/stdout acting as one agent of a running hub (issue 29).
// It needs no database: every call goes to the hub's public API with the agent's key.
import { InvalidParamsError, UnauthenticatedError } from '../../runtime/errors/index.js';
import type { Command } from 'commander';
import type { CliContext } from './context.js';

export function registerMcpCommand(program: Command, ctx: CliContext): void {
  const mcp = ctx.mcp;
  if (mcp === undefined) return;
  program
    .command('mcp')
    .description(
      "serve MCP over stdio as one agent: the hub's agents as tools (for MCP clients); " +
        'defaults from BURROW_URL and BURROW_API_KEY'
    )
    .option('--url <url>', 'the hub base URL', mcp.defaultUrl)
    .option('--key <apiKey>', "the agent's API key (prefer BURROW_API_KEY: argv is visible)")
    .action(async (opts: { url: string; key?: string }) => {
      const apiKey = opts.key ?? mcp.defaultKey;
      if (apiKey === undefined || apiKey === '') {
        throw new UnauthenticatedError(
          'burrow mcp needs an agent API key: BURROW_API_KEY or --key'
        );
      }
      if (!/^https?:\/\//.test(opts.url)) {
        throw new InvalidParamsError(
          '--url',
          `must be the hub's http(s) base URL, got ${opts.url}`
        );
      }
      await mcp.serve({ url: opts.url, apiKey });
    });
}

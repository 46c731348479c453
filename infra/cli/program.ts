// The `burrow` operator CLI as a commander program: tenants, agents and keys (decisions.md §5).
// It knows nothing of configuration or process exit; infra/bin/burrow.ts wires and runs it.
import { Command } from 'commander';
import { registerAccessCommands } from './access.js';
import { registerAgentCommands } from './agents.js';
import { registerCreditCommands } from './credits.js';
import { registerHubCommands } from './hub-commands.js';
import type { CliContext } from './context.js';
import { registerKeyCommands } from './keys.js';
import { registerMcpCommand } from './mcp.js';
import { registerTenantCommands } from './tenants.js';
import { registerWebhookCommands } from './webhooks.js';
import { registerRemoteCommands } from './remote-commands.js';
import { remoteHub } from './remote.js';
import { InvalidParamsError } from '../../runtime/errors/index.js';

/**
 * The program. Parse errors and --help throw a CommanderError (exitOverride) instead of exiting,
 * so the caller can close the database first; commander has already printed them through `ctx.io`.
 */
export function buildProgram(ctx: CliContext, version = '0.0.0'): Command {
  const program = new Command('burrow')
    .description(
      'Operate a Burrow hub: tenants, agents, API keys, credits, webhooks and rate limits; serve MCP.'
    )
    .version(version)
    // `burrow --url <hub> agents create --url <agent>`: options before the command are burrow's.
    .enablePositionalOptions()
    .option('--url <hub>', "manage through a running hub's API instead of the database")
    .option('--key <apiKey>', 'the tenant admin key for --url (default BURROW_API_KEY)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.out(s.replace(/\n$/, '')),
      writeErr: (s) => ctx.io.err(s.replace(/\n$/, '')),
    });
  program.hook('preAction', () => useRemoteWhenAsked(program, ctx));
  registerTenantCommands(program, ctx);
  registerAgentCommands(program, ctx);
  registerKeyCommands(program, ctx);
  registerCreditCommands(program, ctx);
  registerWebhookCommands(program, ctx);
  registerAccessCommands(program, ctx);
  registerMcpCommand(program, ctx);
  registerHubCommands(program, ctx);
  registerRemoteCommands(program, ctx);
  return program;
}

function useRemoteWhenAsked(program: Command, ctx: CliContext): void {
  const o = program.opts<{ url?: string; key?: string }>();
  if (o.url === undefined) return;
  ctx.remote = remoteHub({
    url: o.url,
    key: o.key ?? ctx.hub?.defaultKey,
    fetch: ctx.hub?.fetch,
    // The hub itself answers 401 naming what is missing; discovery needs no key.
    keyOptional: true,
  });
  ctx.db = () =>
    Promise.reject(
      new InvalidParamsError(
        '--url',
        'this command works on the database only: run it without --url'
      )
    );
}

// The `burrow` operator CLI as a commander program: tenants, agents and keys (decisions.md §5).
// It knows nothing of configuration or process exit; infra/bin/burrow.ts wires and runs it.
import { Command } from 'commander';
import { registerAgentCommands } from './agents.js';
import { registerCreditCommands } from './credits.js';
import type { CliContext } from './context.js';
import { registerKeyCommands } from './keys.js';
import { registerTenantCommands } from './tenants.js';
import { registerWebhookCommands } from './webhooks.js';

/**
 * The program. Parse errors and --help throw a CommanderError (exitOverride) instead of exiting,
 * so the caller can close the database first; commander has already printed them through `ctx.io`.
 */
export function buildProgram(ctx: CliContext, version = '0.0.0'): Command {
  const program = new Command('burrow')
    .description(
      'Operate a Burrow hub: tenants, agents, API keys, credits, webhooks and rate limits.'
    )
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.out(s.replace(/\n$/, '')),
      writeErr: (s) => ctx.io.err(s.replace(/\n$/, '')),
    });
  registerTenantCommands(program, ctx);
  registerAgentCommands(program, ctx);
  registerKeyCommands(program, ctx);
  registerCreditCommands(program, ctx);
  registerWebhookCommands(program, ctx);
  return program;
}

// The operator CLI's public surface, for infra/bin/burrow.ts and tests.
export { buildProgram } from './program.js';
export { fetchAgentCard, agentCardUrl, type FetchCardOptions } from './card.js';
export { createNatsNotifier, type NotifierOptions } from './notify.js';
export type { CliContext, CliIo, Notice } from './context.js';

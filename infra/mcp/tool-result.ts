// What a tool answers (MCP "tools/call" result): the same value as text for people and models
// that read only `content`, and as `structuredContent` for clients that read data. A hub refusal
// becomes a tool error carrying the hub's code and message, never a protocol error or a crash.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HubError } from '../../sdk/index.js';

/** A successful result: `summary` (one or a few lines) then the value as JSON, and the value. */
export function toolResult(summary: string, value: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: `${summary}\n\n${JSON.stringify(value, null, 2)}` }],
    structuredContent: value,
  };
}

/** Where an error result carries its details: the result's `_meta` (MCP "General fields"). */
export const ERROR_META = 'burrow/error';

/** The error as the MCP client sees it in `_meta["burrow/error"]`. */
export interface ToolErrorBody {
  code: string;
  rpcCode?: number;
  message: string;
  data?: unknown;
}

/**
 * A failure as a tool error (`isError: true`), its text `<CODE> <rpcCode>: <message>`. HubErrors
 * keep the hub's code (UPPER_SNAKE, as in runtime/errors/README.md), JSON-RPC number and data; a
 * bad argument caught on this side is INVALID_PARAMS; anything else is INTERNAL. The details go
 * in `_meta`, not `structuredContent`: clients check structured content against the tool's
 * output schema even on errors (SDK 1.32 Client.callTool), and that schema describes success.
 */
export function toolError(err: unknown): CallToolResult {
  const error = errorBody(err);
  const rpc = error.rpcCode === undefined ? '' : ` ${error.rpcCode}`;
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}${rpc}: ${error.message}` }],
    _meta: { [ERROR_META]: error },
  };
}

/** A task that ended badly on the agent's side: not a hub refusal, so the code says what it is. */
export class TaskOutcomeError extends Error {
  constructor(
    readonly code: 'TASK_FAILED' | 'TASK_REJECTED' | 'TASK_CANCELED',
    message: string,
    readonly data: Record<string, unknown>
  ) {
    super(message);
    this.name = 'TaskOutcomeError';
  }
}

function errorBody(err: unknown): ToolErrorBody {
  if (err instanceof HubError) {
    return {
      code: err.code,
      ...(err.rpcCode !== undefined ? { rpcCode: err.rpcCode } : {}),
      message: err.message,
      ...(err.data !== undefined ? { data: err.data } : {}),
    };
  }
  if (err instanceof TaskOutcomeError) {
    return { code: err.code, message: err.message, data: err.data };
  }
  // HubClient checks its arguments with TypeErrors before anything is sent.
  if (err instanceof TypeError) return { code: 'INVALID_PARAMS', message: err.message };
  return { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) };
}

/** Runs a tool body; whatever it throws comes back as a tool error. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    return toolError(err);
  }
}

// SendMessage params of any dialect → one normalized request (spec "SendMessage configuration",
// decisions.md §1, §8): where the ids come from, and whether the caller waits.
import { InvalidParamsError } from '../errors/index.js';
import type { Dialect } from './dialect.js';
import type { SendMessageConfiguration } from './hub-schema.js';
import type { Message } from './model.js';
import { readSendMessageParams } from './send-check.js';

export interface SendRequest {
  /** The message, its contextId/taskId set to the resolved values. */
  message: Message;
  /** Target on the hub endpoint (alias or canonical id); the per-agent endpoint takes it from the path. */
  agentId?: string;
  contextId?: string;
  taskId?: string;
  historyLength?: number;
  acceptedOutputModes?: string[];
  /** Wait for completion (up to the blocking limit) before answering. */
  blocking: boolean;
  /** `x-ttl`: queue lifetime in seconds when the recipient is offline; 0 = do not queue. */
  ttlSeconds?: number;
  metadata?: Record<string, unknown>;
}

/**
 * What the caller waits for when it says nothing: the hub spec answers at once (`submitted`);
 * A2A v1.0 blocks unless `returnImmediately`; the v0.3 reference servers block unless
 * `blocking: false`.
 */
const BLOCKING_BY_DEFAULT: Record<Dialect, boolean> = { hub: false, v1: true, 'v0.3': true };

/** Parses and resolves SendMessage/SendStreamingMessage params; throws InvalidParamsError. */
export function decodeSendMessage(params: unknown, dialect: Dialect): SendRequest {
  const p = readSendMessageParams(params);
  const config: Partial<SendMessageConfiguration> = p.configuration ?? {};
  const contextId = pick('contextId', p.message.contextId, config.contextId);
  const taskId = pick('taskId', p.message.taskId, config.taskId);
  const blocking =
    config.blocking ??
    (config.returnImmediately !== undefined
      ? !config.returnImmediately
      : BLOCKING_BY_DEFAULT[dialect]);
  const message: Message = {
    ...p.message,
    ...(contextId !== undefined ? { contextId } : {}),
    ...(taskId !== undefined ? { taskId } : {}),
  };
  return {
    message,
    ...(config.agentId !== undefined ? { agentId: config.agentId } : {}),
    ...(contextId !== undefined ? { contextId } : {}),
    ...(taskId !== undefined ? { taskId } : {}),
    ...(config.historyLength !== undefined ? { historyLength: config.historyLength } : {}),
    ...(config.acceptedOutputModes !== undefined
      ? { acceptedOutputModes: config.acceptedOutputModes }
      : {}),
    blocking,
    ...(config['x-ttl'] !== undefined ? { ttlSeconds: config['x-ttl'] } : {}),
    ...(p.metadata !== undefined ? { metadata: p.metadata } : {}),
  };
}

/** contextId/taskId may sit on the message or in configuration; both is fine only if they agree. */
function pick(field: 'contextId' | 'taskId', onMessage?: string, inConfig?: string) {
  if (onMessage !== undefined && inConfig !== undefined && onMessage !== inConfig) {
    throw new InvalidParamsError(
      `configuration.${field}`,
      `differs from message.${field} ("${inConfig}" vs "${onMessage}")`
    );
  }
  return onMessage ?? inConfig;
}

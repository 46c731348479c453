// Which POST /a2a bodies may exceed BODY_LIMIT_BYTES: SendMessage to the pixel agent, up to
// PIXEL_BODY_LIMIT_BYTES (decisions.md §7). Such a message is also stored in its task's record, one
// NATS message, so it must fit the per-message limit derived from the server's max_payload too
// (actors/task/task.limits.ts; TaskService refuses every larger message the same way): saying so
// before the whole body is parsed spares the work.
import { recordLimits } from '../../runtime/bus/index.js';
import { taskMessageLimit } from '../../actors/index.js';

const SEND_METHODS = new Set([
  'SendMessage',
  'message/send',
  'SendStreamingMessage',
  'message/stream',
]);

/** Bytes of a SendMessage body around its message (method, configuration, ids). */
const ENVELOPE_BYTES = 4096;

export interface LargeRequestPolicy {
  /** The pixel agent's request limit. */
  limitBytes: number;
  /** The limit for every other request. */
  bodyLimitBytes: number;
  /** The NATS server's max_payload (read when asked: a reconnect may reach another server). */
  natsMaxPayload: () => number;
  /** Ids and aliases that may take large requests. */
  agents: ReadonlySet<string>;
}

export function largeAgentRequests(p: LargeRequestPolicy) {
  return {
    limitBytes: p.limitBytes,
    admit(body: Buffer): string | undefined {
      let req: { method?: unknown; params?: { configuration?: { agentId?: unknown } } };
      try {
        req = JSON.parse(body.toString('utf8')) as typeof req;
      } catch {
        return `Request body exceeds ${p.bodyLimitBytes} bytes`;
      }
      const agentId = req?.params?.configuration?.agentId;
      if (
        !SEND_METHODS.has(req?.method as string) ||
        typeof agentId !== 'string' ||
        !p.agents.has(agentId)
      ) {
        return `Request body exceeds ${p.bodyLimitBytes} bytes (only messages to the pixel agent may be up to ${p.limitBytes})`;
      }
      const maxPayload = p.natsMaxPayload();
      const limit = taskMessageLimit(recordLimits(maxPayload).active);
      // The body is the message plus a little JSON-RPC around it.
      if (body.length > limit + ENVELOPE_BYTES) {
        return (
          `Request body of ${body.length} bytes exceeds the ${limit} bytes this hub accepts per ` +
          `message: NATS max_payload (${maxPayload} bytes) must hold the task with the message ` +
          `and a reply as large; the operator must raise max_payload in the NATS server's configuration`
        );
      }
      return undefined;
    },
  };
}

// Which POST /a2a bodies may exceed BODY_LIMIT_BYTES: SendMessage to the pixel agent, up to
// PIXEL_BODY_LIMIT_BYTES (decisions.md §7). Such a message also travels through NATS (the task's
// durable snapshot, the delivery to the pool), so it must fit the server's max_payload too;
// saying so up front beats a failed publish deep in the hub.
const SEND_METHODS = new Set([
  'SendMessage',
  'message/send',
  'SendStreamingMessage',
  'message/stream',
]);

/** JSON and the task snapshot's other fields, beside the message itself. */
const NATS_HEADROOM = 0.85;

export interface LargeRequestPolicy {
  /** The pixel agent's request limit. */
  limitBytes: number;
  /** The limit for every other request. */
  bodyLimitBytes: number;
  /** The NATS server's max_payload. */
  natsMaxPayload: number;
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
      if (body.length > p.natsMaxPayload * NATS_HEADROOM) {
        return (
          `Request body of ${body.length} bytes does not fit this hub's NATS max_payload ` +
          `(${p.natsMaxPayload} bytes); the operator must raise max_payload in the NATS server's configuration`
        );
      }
      return undefined;
    },
  };
}

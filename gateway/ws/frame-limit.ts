// Frames are held to the body limit of HTTP requests (BODY_LIMIT_BYTES), with the same allowance
// for large requests the HTTP endpoint makes (SendMessage to pixel, decisions.md §7, through the
// same policy). A refused frame is answered without being parsed: a JSON-RPC frame with a -32018
// error carrying its id, a custom frame with an `error` frame; nothing in it is acted on. uWS
// itself closes the socket (1009) on frames beyond the largest limit plus FRAME_HEADROOM_BYTES, so
// an absurd frame is never even buffered whole.
import { HubError } from '../../runtime/errors/index.js';
import { toRpcError } from '../rpc/index.js';
import { peekFrame } from './frame-peek.js';

/** Frames this far over the largest limit still get an answer instead of a 1009 close. */
export const FRAME_HEADROOM_BYTES = 1024 * 1024;

export interface FrameLimitOptions {
  readonly bodyLimitBytes: number;
  /** The HTTP endpoint's policy for bodies above bodyLimitBytes (GatewayDeps.largeRequests). */
  readonly large?: { limitBytes: number; admit(body: Buffer): string | undefined };
}

export interface FrameRefusal {
  /** What the socket is sent. */
  readonly answer: object;
  /** A refused task_response: its task, and why, so the task can fail instead of waiting. */
  readonly reply?: { taskId: string; reason: string };
}

export interface FrameLimit {
  /** For uWS's maxPayloadLength. */
  readonly maxPayloadLength: number;
  /**
   * The frame answering a refused frame, or undefined when `frame` may be handled. `allowLarge`:
   * whether the large-request policy may admit it (only for authenticated sockets: it parses).
   */
  refusal(frame: Buffer, allowLarge: boolean): FrameRefusal | undefined;
}

export function frameLimit(o: FrameLimitOptions): FrameLimit {
  const limit = o.bodyLimitBytes;
  const large = o.large && o.large.limitBytes > limit ? o.large : undefined;
  return {
    maxPayloadLength: Math.max(limit, large?.limitBytes ?? 0) + FRAME_HEADROOM_BYTES,
    refusal(frame, allowLarge) {
      if (frame.length <= limit) return undefined;
      const peek = peekFrame(frame);
      let reason = `Frame of ${frame.length} bytes exceeds the body limit of ${limit} bytes`;
      if (large && allowLarge && peek.jsonrpc && peek.method && frame.length <= large.limitBytes) {
        const refused = large.admit(frame);
        if (refused === undefined) return undefined;
        reason = refused;
      }
      const err = new HubError('PAYLOAD_TOO_LARGE', reason, { data: { limit } });
      if (peek.jsonrpc) {
        return { answer: { jsonrpc: '2.0', id: peek.id ?? null, error: toRpcError(err, '') } };
      }
      const answer = {
        type: 'error',
        error: err.code,
        message: reason,
        limit,
        ...(peek.taskId !== undefined ? { taskId: peek.taskId } : {}),
      };
      const reply =
        peek.type === 'task_response' && peek.taskId !== undefined
          ? { taskId: peek.taskId, reason }
          : undefined;
      return reply ? { answer, reply } : { answer };
    },
  };
}

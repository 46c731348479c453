// What a legitimate answer to a fuzz input looks like: a JSON-RPC 2.0 envelope (an error with an
// integer code and a string message, id echoed or null; or, for the rare input that turns out
// valid, a result), or a REST reply (an HTTP error ≥ 400 with {"error":{code,message}}, or a 2xx
// JSON body). A 500 or an "Internal error" is always a finding: the input reached a bug.

export type Verdict = { ok: true; outcome: string } | { ok: false; problem: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request's id when its body is a JSON object holding a usable one, else undefined. */
export function requestId(body: Buffer | undefined): { id: unknown } | undefined {
  if (body === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    if (isObject(v) && 'id' in v && (typeof v.id === 'string' || typeof v.id === 'number')) {
      return { id: v.id };
    }
  } catch {
    // Not JSON: no id to echo.
  }
  return undefined;
}

/** A JSON-RPC notification: a valid request object without an `id` member (no reply is due). */
export function isNotification(body: Buffer | undefined): boolean {
  if (body === undefined) return false;
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return (
      isObject(v) &&
      !('id' in v) &&
      v.jsonrpc === '2.0' &&
      typeof v.method === 'string' &&
      (v.params === undefined || (typeof v.params === 'object' && v.params !== null))
    );
  } catch {
    return false;
  }
}

/** One JSON-RPC envelope (a whole reply, or one SSE event's data). */
export function checkRpcEnvelope(v: unknown, sent: { id: unknown } | undefined): Verdict {
  if (!isObject(v)) return { ok: false, problem: 'envelope is not an object' };
  if (v.jsonrpc !== '2.0') return { ok: false, problem: `jsonrpc is ${JSON.stringify(v.jsonrpc)}` };
  if (!('id' in v)) return { ok: false, problem: 'envelope has no id' };
  if (v.id !== null && (sent === undefined || v.id !== sent.id)) {
    return { ok: false, problem: `id ${JSON.stringify(v.id)} is neither null nor the request's` };
  }
  if ('error' in v) {
    const e = v.error;
    if (!isObject(e)) return { ok: false, problem: 'error is not an object' };
    if (typeof e.code !== 'number' || !Number.isInteger(e.code)) {
      return { ok: false, problem: `error.code ${JSON.stringify(e.code)} is not an integer` };
    }
    if (typeof e.message !== 'string')
      return { ok: false, problem: 'error.message is not a string' };
    if (e.code === -32603) return { ok: false, problem: `internal error: ${e.message}` };
    if ('result' in v) return { ok: false, problem: 'both error and result' };
    return { ok: true, outcome: `rpc ${e.code}` };
  }
  if ('result' in v) return { ok: true, outcome: 'rpc result' };
  return { ok: false, problem: 'neither error nor result' };
}

export function checkRest(status: number, contentType: string, body: string): Verdict {
  if (status >= 500 && status !== 503)
    return { ok: false, problem: `HTTP ${status}: ${body.slice(0, 200)}` };
  if (!contentType.startsWith('application/json')) {
    return { ok: false, problem: `HTTP ${status} with content-type ${contentType}` };
  }
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return { ok: false, problem: `HTTP ${status} body is not JSON: ${body.slice(0, 100)}` };
  }
  if (status >= 200 && status < 300) return { ok: true, outcome: `http ${status}` };
  if (status < 400) return { ok: false, problem: `HTTP ${status}` };
  const e = isObject(v) ? v.error : undefined;
  if (!isObject(e) || typeof e.code !== 'string' || typeof e.message !== 'string') {
    return {
      ok: false,
      problem: `HTTP ${status} without a REST error body: ${body.slice(0, 200)}`,
    };
  }
  return { ok: true, outcome: `http ${status}` };
}

/** A JSON-RPC route's answer: an envelope (any status), a stream of envelopes, or a REST error. */
export function checkRpcReply(
  status: number,
  contentType: string,
  body: string,
  sent: { id: unknown } | undefined,
  notification = false
): Verdict {
  if (status >= 500 && status !== 503)
    return { ok: false, problem: `HTTP ${status}: ${body.slice(0, 200)}` };
  // A notification that was run gets 204 and nothing else (JSON-RPC 2.0 §4.1).
  if (status === 204) {
    if (!notification)
      return { ok: false, problem: 'HTTP 204 to a request that is no notification' };
    return body === ''
      ? { ok: true, outcome: 'http 204' }
      : { ok: false, problem: 'a 204 with a body' };
  }
  if (contentType.startsWith('text/event-stream')) {
    const events = body.split('\n').filter((l) => l.startsWith('data:'));
    if (events.length === 0) return { ok: false, problem: 'an event stream without events' };
    for (const line of events) {
      let v: unknown;
      try {
        v = JSON.parse(line.slice(5));
      } catch {
        return { ok: false, problem: `SSE data is not JSON: ${line.slice(0, 100)}` };
      }
      const verdict = checkRpcEnvelope(v, sent);
      if (!verdict.ok) return verdict;
    }
    return { ok: true, outcome: 'sse' };
  }
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return { ok: false, problem: `HTTP ${status} body is not JSON: ${body.slice(0, 100)}` };
  }
  // Before the JSON-RPC layer (body too large, no route) the answer is a REST error.
  if (isObject(v) && !('jsonrpc' in v) && status >= 400)
    return checkRest(status, contentType, body);
  return checkRpcEnvelope(v, sent);
}

const WS_FRAME_TYPES = new Set(['welcome', 'pong', 'card_updated', 'task_update', 'message']);

/** One frame the hub sent on a WebSocket during fuzzing. */
export function checkWsFrame(text: string): Verdict {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, problem: `frame is not JSON: ${text.slice(0, 100)}` };
  }
  if (!isObject(v)) return { ok: false, problem: 'frame is not an object' };
  if ('jsonrpc' in v) return checkRpcEnvelope({ ...v, id: null }, undefined);
  if (v.type === 'error' || v.type === 'auth_error') {
    if (typeof v.error !== 'string') return { ok: false, problem: `${v.type} frame without error` };
    if (v.type === 'error' && typeof v.message !== 'string') {
      return { ok: false, problem: 'error frame without message' };
    }
    if (v.error === 'INTERNAL' || v.message === 'Internal error') {
      return { ok: false, problem: `internal error frame: ${text.slice(0, 200)}` };
    }
    return { ok: true, outcome: `ws ${v.type}` };
  }
  if (typeof v.type === 'string' && WS_FRAME_TYPES.has(v.type))
    return { ok: true, outcome: `ws ${v.type}` };
  return { ok: false, problem: `unexpected frame ${text.slice(0, 200)}` };
}

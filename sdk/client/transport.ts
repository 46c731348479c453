// HTTP to the hub: JSON-RPC 2.0 on POST {url}/a2a in the hub dialect (decisions.md §1, with
// `A2A-Version: 1.0` and the bearer key) and the REST endpoints, each answer turned into a result
// or a typed HubError, each call retried as its RetrySafety allows.
import { BadResponseError, errorFromRest, errorFromRpc, HubConnectionError } from './errors.js';
import {
  abortReason,
  parseRetryAfter,
  withRetry,
  type RetryOptions,
  type RetrySafety,
} from './retry.js';
import type { CallOptions } from './types.js';

export interface TransportOptions {
  /** The hub's base URL, e.g. http://localhost:3000. */
  url: string;
  apiKey?: string | undefined;
  fetch: typeof fetch;
  retry: RetryOptions;
}

export interface RestRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  safety: RetrySafety;
}

let rpcSeq = 0;

export class Transport {
  readonly baseUrl: string;

  constructor(private readonly o: TransportOptions) {
    this.baseUrl = o.url.replace(/\/+$/, '');
  }

  /** A JSON-RPC call on POST /a2a; resolves with `result`, throws the typed error otherwise. */
  rpc<T>(method: string, params: unknown, safety: RetrySafety, call: CallOptions = {}): Promise<T> {
    return this.retrying(safety, call, async () => {
      const res = await this.post(method, params, {}, call.signal);
      return (await readRpc(res)) as T;
    });
  }

  /**
   * A JSON-RPC call answered with Server-Sent Events (SendStreamingMessage, SubscribeToTask). A
   * refusal before the stream starts is an ordinary JSON-RPC error and is thrown here.
   */
  openStream(
    method: string,
    params: unknown,
    headers: Record<string, string>,
    safety: RetrySafety,
    call: { signal?: AbortSignal | undefined; retry?: Partial<RetryOptions> | undefined }
  ): Promise<Response> {
    return this.retrying(safety, call, async () => {
      const res = await this.post(method, params, headers, call.signal);
      if (res.ok && (res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        if (res.body === null)
          throw new BadResponseError('BAD_RESPONSE', 'SSE response without a body');
        return res;
      }
      await readRpc(res);
      throw new BadResponseError('BAD_RESPONSE', `${method} answered with a result, not a stream`, {
        httpStatus: res.status,
      });
    });
  }

  /** A REST call; resolves with the JSON body of a 2xx answer. */
  rest<T>(req: RestRequest, call: CallOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...this.auth() };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    return this.retrying(req.safety, call, async () => {
      const res = await this.fetch(url.toString(), {
        method: req.method,
        headers,
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
        ...(call.signal ? { signal: call.signal } : {}),
      });
      const body = await readJson(res, call.signal);
      if (!res.ok) throw errorFromRest(body, res.status, retryAfterOf(res));
      if (body === undefined)
        throw new BadResponseError('BAD_RESPONSE', `HTTP ${res.status} without a JSON body`, {
          httpStatus: res.status,
        });
      return body as T;
    });
  }

  private retrying<T>(
    safety: RetrySafety,
    call: { signal?: AbortSignal | undefined; retry?: Partial<RetryOptions> | undefined },
    attempt: () => Promise<T>
  ): Promise<T> {
    const options = call.retry ? { ...this.o.retry, ...call.retry } : this.o.retry;
    return withRetry(attempt, { options, safety, signal: call.signal });
  }

  private post(
    method: string,
    params: unknown,
    headers: Record<string, string>,
    signal: AbortSignal | undefined
  ): Promise<Response> {
    return this.fetch(`${this.baseUrl}/a2a`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'a2a-version': '1.0',
        ...this.auth(),
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcSeq, method, params }),
      ...(signal ? { signal } : {}),
    });
  }

  private auth(): Record<string, string> {
    return this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {};
  }

  /** fetch, with a failure to connect as a HubConnectionError (an abort stays the abort). */
  private async fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.o.fetch(url, init);
    } catch (err) {
      if (init.signal?.aborted) throw abortReason(init.signal);
      throw new HubConnectionError(
        'CONNECTION_FAILED',
        `Cannot reach the hub at ${url}: ${String(err)}`,
        { cause: err }
      );
    }
  }
}

function retryAfterOf(res: Response): number | undefined {
  return parseRetryAfter(res.headers.get('retry-after'));
}

/** The body as JSON; undefined when it is empty or not JSON. */
async function readJson(res: Response, signal?: AbortSignal | null): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    if (signal?.aborted) throw abortReason(signal);
    throw new HubConnectionError(
      'CONNECTION_FAILED',
      `The hub's answer broke off: ${String(err)}`,
      { cause: err }
    );
  }
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

interface RpcResponse {
  result?: unknown;
  error?: { code: number; message?: string; data?: unknown };
}

/** A JSON-RPC response: the result, or the typed error of `error` (or of a non-JSON-RPC answer). */
async function readRpc(res: Response): Promise<unknown> {
  const body = (await readJson(res)) as RpcResponse | undefined;
  const retryAfterMs = retryAfterOf(res);
  if (body !== undefined && typeof body === 'object' && body !== null) {
    const e = body.error;
    if (typeof e === 'object' && e !== null && typeof e.code === 'number') {
      throw errorFromRpc(e, res.status, retryAfterMs);
    }
    if (res.ok && 'result' in body) return body.result;
  }
  // Not JSON-RPC at all: a proxy's 502/503 page, a REST-style body, an empty answer.
  if (!res.ok) throw errorFromRest(body, res.status, retryAfterMs);
  throw new BadResponseError(
    'BAD_RESPONSE',
    'The hub answered without a JSON-RPC result or error',
    {
      httpStatus: res.status,
      data: body,
    }
  );
}

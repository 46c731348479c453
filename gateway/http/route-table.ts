// Routes on the uWS app. A handler takes a RouteRequest and returns a Reply; the table owns the
// uWS rules (sync reads, onAborted, cork), body limits, in-flight counting for drain, the HTTP
// metrics, and the fallbacks: 405 on a known path with another method, 404 everywhere else.
import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import {
  HubError,
  PayloadTooLargeError,
  restError,
  toRestError,
} from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import { readBody } from './body.js';
import { Exchange, writeReply } from './exchange.js';
import type { InFlight } from './in-flight.js';
import { jsonReply, restErrorReply, type Reply } from './reply.js';
import { RequestScope } from './reply-headers.js';
import type { RouteDoc } from './route-doc.js';
import {
  methodLabel,
  paramNames,
  readHeaders,
  readParams,
  type HttpMethod,
  type RouteRequest,
} from './request.js';

export type RouteHandler = (req: RouteRequest) => Reply | Promise<Reply>;

export interface RouteSpec {
  readonly method: HttpMethod;
  /** uWS pattern (static segments, `:param` segments, trailing `*`); also the metric label. */
  readonly pattern: string;
  readonly handler: RouteHandler;
  /** Read the request body into RouteRequest.body; `true` uses the gateway's bodyLimitBytes. */
  readonly body?: boolean | { readonly limitBytes: number };
  /**
   * The reply for a request refused before its handler runs (a declared Content-Length over the
   * limit), in the route's own error shape; the REST error body when absent.
   */
  readonly refuse?: (err: HubError, requestId: string) => Reply;
  /** The route in GET /openapi.json (route-doc.ts); required, so no route goes undescribed. */
  readonly doc: RouteDoc;
}

/** A path served outside the table, described for the API document only. */
export interface DescribedPath {
  readonly method: HttpMethod;
  readonly pattern: string;
  readonly doc: RouteDoc;
}

/** What the API document needs of a route or a described path. */
export type DocumentedPath = DescribedPath & Pick<Partial<RouteSpec>, 'body'>;

export interface RouteTableOptions {
  readonly log: Logger;
  readonly metrics: HubMetrics;
  readonly bodyLimitBytes: number;
  readonly inFlight: InFlight;
}

const MOUNT = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'del' } as const;

/** Metric route label of requests that match no pattern (the raw path would be unbounded). */
export const UNMATCHED_ROUTE = 'unmatched';

const NO_BODY: Promise<Buffer> = Promise.resolve(Buffer.alloc(0));
const ignore = (): void => {};

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

export class RouteTable {
  private readonly methodsByPattern = new Map<string, Set<HttpMethod>>();
  private readonly mounted: RouteSpec[] = [];
  /** Paths served on the raw app (the WebSocket upgrade), in the document but not routed here. */
  private readonly described: DescribedPath[] = [];
  private sealed = false;

  constructor(
    /** The raw uWS app, for what routes cannot express (WebSocket upgrades, streaming). */
    readonly app: TemplatedApp,
    private readonly opts: RouteTableOptions
  ) {}

  /** Mounts a route. Throws if the same method and pattern are taken, or after seal(). */
  add(spec: RouteSpec): this {
    if (this.sealed)
      throw new HubError('INTERNAL', `route ${spec.method} ${spec.pattern} added after seal()`);
    const methods = this.methodsByPattern.get(spec.pattern) ?? new Set<HttpMethod>();
    if (methods.has(spec.method)) {
      throw new HubError('INTERNAL', `route ${spec.method} ${spec.pattern} registered twice`);
    }
    methods.add(spec.method);
    this.methodsByPattern.set(spec.pattern, methods);
    this.mounted.push(spec);
    this.app[MOUNT[spec.method]](spec.pattern, this.adapt(spec));
    return this;
  }

  /**
   * Describes a path the raw app serves (`app.ws`), so that the API document has it too: a path
   * cannot be served undescribed just because it bypasses the table.
   */
  describe(path: DescribedPath): this {
    if (this.sealed) throw new HubError('INTERNAL', `${path.pattern} described after seal()`);
    this.described.push(path);
    return this;
  }

  /** "METHOD pattern" of every route, in mount order, then the described paths. */
  routes(): string[] {
    const out: string[] = [];
    for (const [pattern, methods] of this.methodsByPattern) {
      for (const m of methods) out.push(`${m} ${pattern}`);
    }
    for (const d of this.described) out.push(`${d.method} ${d.pattern}`);
    return out;
  }

  /** Every mounted route and described path, in order (the API document is built from them). */
  specs(): readonly DocumentedPath[] {
    return [...this.mounted, ...this.described];
  }

  /** Installs the 405 and 404 fallbacks. Call once, after every route is added. */
  seal(): void {
    if (this.sealed) return;
    this.sealed = true;
    for (const [pattern, methods] of this.methodsByPattern) {
      const allow = [...methods].join(', ');
      this.app.any(pattern, (res, req) => {
        const method = methodLabel(req.getMethod());
        const body = restError(
          'METHOD_NOT_ALLOWED',
          `${method} is not allowed on ${pattern}; use ${allow}`
        );
        this.answerNow(res, method, pattern, jsonReply(405, body, { allow }));
      });
    }
    this.app.any('/*', (res, req) => {
      const method = methodLabel(req.getMethod());
      const err = new HubError('NOT_FOUND', `No route for ${method} ${req.getUrl()}`);
      this.answerNow(res, method, UNMATCHED_ROUTE, jsonReply(404, toRestError(err)));
    });
  }

  private adapt(spec: RouteSpec): (res: HttpResponse, req: HttpRequest) => void {
    const { method, pattern, handler } = spec;
    const log = this.opts.log;
    const refuse =
      spec.refuse ?? ((err: HubError, requestId: string) => restErrorReply(err, requestId, log));
    const names = paramNames(pattern);
    const limit =
      spec.body === undefined || spec.body === false
        ? -1
        : spec.body === true
          ? this.opts.bodyLimitBytes
          : spec.body.limitBytes;

    return (res, req) => {
      const started = performance.now();
      const exchange = new Exchange(res);
      // Everything from `req` is read here: it is invalid once this function returns.
      const headers = readHeaders(req);
      let body = NO_BODY;
      if (limit >= 0) {
        const declared = headers['content-length'];
        // Refused before a byte of the body is read, and the connection closed with the reply:
        // the client may still be sending, and uWS would otherwise read it all (or wait for its
        // idle timeout) before the next request.
        if (declared !== undefined && Number(declared) > limit) {
          const reply = refuse(new PayloadTooLargeError(limit), randomUUID());
          this.answerNow(res, method, pattern, { ...reply, close: true });
          return;
        }
        body = readBody(res, exchange, declared, limit, headers['transfer-encoding'] !== undefined);
        // The handler may answer without awaiting the body; its rejection is not a crash.
        body.catch(ignore);
      }
      // Read now: uWS gives the peer address only while the handler runs synchronously.
      const client = Buffer.from(res.getRemoteAddressAsText()).toString();
      const request: RouteRequest = {
        method,
        path: req.getUrl(),
        query: req.getQuery() ?? '',
        headers,
        params: readParams(req, names),
        requestId: randomUUID(),
        body,
        scope: new RequestScope(client),
      };
      this.run(exchange, request, handler, pattern, started);
    };
  }

  private run(
    exchange: Exchange,
    request: RouteRequest,
    handler: RouteHandler,
    route: string,
    started: number
  ): void {
    this.opts.inFlight.enter();
    // Headers added during the request (rate-limit headers) join whatever reply answers it: they
    // are written after the reply's own (and in their place, for a name both have).
    const scope = request.scope;
    let out: Reply | Promise<Reply>;
    try {
      out = handler(request);
    } catch (err) {
      out = restErrorReply(err, request.requestId, this.opts.log);
    }
    if (!isPromise(out)) {
      this.finish(exchange, request.method, route, out, started, scope.headers);
      return;
    }
    out.then(
      (reply) => this.finish(exchange, request.method, route, reply, started, scope.headers),
      (err: unknown) => {
        const reply = restErrorReply(err, request.requestId, this.opts.log);
        this.finish(exchange, request.method, route, reply, started, scope.headers);
      }
    );
  }

  private finish(
    exchange: Exchange,
    method: string,
    route: string,
    reply: Reply,
    started: number,
    extraHeaders: Readonly<Record<string, string>> | undefined
  ): void {
    // 499 (client closed request) is what the metrics show for an aborted exchange.
    let status = 499;
    try {
      if (exchange.send(reply, extraHeaders)) status = reply.status;
    } catch (err) {
      this.opts.log.error({ err, route }, 'writing an HTTP reply failed');
    } finally {
      this.opts.inFlight.leave();
    }
    this.observe(method, route, status, started);
  }

  /** For replies written synchronously inside the uWS handler, where no abort can happen. */
  private answerNow(res: HttpResponse, method: string, route: string, reply: Reply): void {
    const started = performance.now();
    writeReply(res, reply);
    this.observe(method, route, reply.status, started);
  }

  private observe(method: string, route: string, status: number, started: number): void {
    const { httpRequests, httpDuration } = this.opts.metrics;
    httpRequests.inc({ method, route, status: String(status) });
    httpDuration.observe({ method, route }, (performance.now() - started) / 1000);
  }
}

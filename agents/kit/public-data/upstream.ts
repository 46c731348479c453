// One upstream of a public-data agent (data-sources.md §0): GET a JSON answer with a descriptive
// User-Agent, from the cluster-wide cache when it holds the request, else within the upstream's
// token bucket and its Retry-After, and with its provenance. Failures name the source and say what
// to do; "no matches" quirks (openFDA's 404) come back as an empty answer, never as an error.
// Upstreams that are not JSON APIs use `request` (bytes, forms, cookies) and `remember`.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HubError, UnavailableError } from '../../../runtime/errors/index.js';
import type { Db } from '../../../infra/db/index.js';
import { fail } from '../actions.js';
import {
  blockUpstream,
  forgetCached,
  readCached,
  reserveToken,
  takeToken,
  writeCached,
} from './store.js';

/** Where one answer came from (data-sources.md §0), with any key left out of `params` and `url`. */
export interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  retrievedAt: string;
  url: string;
  cached: boolean;
}

export interface UpstreamOptions {
  /** The name people know, e.g. "ClinicalTrials.gov"; it names the source in every message. */
  source: string;
  /** The bucket's key, e.g. "clinicaltrials". */
  bucket: string;
  baseUrl: string;
  /** The setting that holds `baseUrl`, named when the upstream cannot be reached. */
  urlSetting: string;
  requestsPerMinute: number;
  timeoutMs: number;
  /** The largest answer read; a larger one fails the task instead of filling memory. */
  maxBytes: number;
  cacheTtlMs: number;
  userAgent: string;
  /** Sent with every request and never shown nor part of the cache key (X-API-KEY, say). */
  secretHeaders?: Record<string, string>;
  /** Query parameters sent but never shown nor cached by (api_key). */
  secretParams?: Record<string, string>;
  sql: Db;
  signal: AbortSignal;
  /** The bucket's burst; ten seconds' worth when unset. GDELT allows no burst at all: 1. */
  burst?: number;
  /**
   * Wait in line for a turn up to this long instead of failing past 10 s: a turn is reserved in
   * the shared bucket, so requests from every node are served in the order they asked (GDELT).
   */
  queueMs?: number;
  /** A 429 without Retry-After is held off this long (GDELT documents one request per 5 s). */
  assumedRetryAfterMs?: number;
  /** How long the upstream's own rate headers say to hold off (Reddit's X-Ratelimit-*). */
  holdAfter?: (headers: Headers) => number | undefined;
}

export interface GetRequest {
  /** Appended to the base URL's path, e.g. "/studies". */
  path: string;
  params?: Record<string, string | number | undefined>;
  /** This status and body mean "no matches": the answer is then `undefined`, cached like others. */
  noMatches?: (status: number, body: unknown) => boolean;
  /** Skip the cache for this request (a stale query id is asked afresh). */
  fresh?: boolean;
  /** A shorter life than the default, for answers that go stale upstream (ECHO's query ids). */
  cacheTtlMs?: number;
  /** False for a 200 that is an error in the upstream's own words (ECHO's): never cached. */
  cacheable?: (body: unknown) => boolean;
  /**
   * Sent as a JSON POST instead of a GET (NIH RePORTER's search): part of the cache key, and
   * shown in the provenance's params, one entry per top-level field.
   */
  body?: Record<string, unknown>;
  /** A 2xx answer that is not JSON is returned as its text (GDELT's errors), not refused. */
  text?: boolean;
  /**
   * A status that means something particular upstream (SAM.gov's 404 for a missing or refused
   * key): the error returned is thrown, and nothing is cached.
   */
  refused?: (status: number, body: unknown) => HubError | undefined;
}

export interface Answer {
  /** The parsed JSON, or undefined for "no matches". */
  body: unknown;
  provenance: Provenance;
}

/** Longest Retry-After the client waits out inside one request; longer ones fail the task. */
const MAX_WAIT_MS = 10_000;

export class Upstream {
  constructor(private readonly o: UpstreamOptions) {}

  get source(): string {
    return this.o.source;
  }

  async get(r: GetRequest): Promise<Answer> {
    const shown = this.url(r, false);
    const posted = r.body === undefined ? '' : `\nPOST ${JSON.stringify(r.body)}`;
    const key = createHash('sha256')
      .update(`${this.o.source}\n${shown.url}${posted}`)
      .digest('hex');
    if (r.fresh !== true) {
      const hit = await readCached(this.o.sql, key);
      if (hit !== undefined) return this.answer(JSON.parse(hit.body), shown, hit.retrievedAt, true);
    } else {
      await forgetCached(this.o.sql, key);
    }
    const { status, body } = await this.fetchJson(this.url(r, true).url, r.body, r.text === true);
    const refused = r.refused?.(status, body);
    if (refused !== undefined) throw refused;
    const empty = r.noMatches?.(status, body) === true;
    if (!empty && (status < 200 || status > 299)) this.httpFailure(status);
    const retrievedAt = new Date();
    const stored = empty ? null : body;
    if (!empty && r.cacheable?.(body) === false)
      return this.answer(stored, shown, retrievedAt, false);
    await writeCached(this.o.sql, {
      key,
      source: this.o.source,
      body: JSON.stringify(stored),
      retrievedAt,
      ttlMs: r.cacheTtlMs ?? this.o.cacheTtlMs,
    });
    return this.answer(stored, shown, retrievedAt, false);
  }

  private answer(body: unknown, shown: Shown, at: Date, cached: boolean): Answer {
    return {
      body: body === null ? undefined : body,
      provenance: {
        source: this.o.source,
        endpoint: shown.endpoint,
        params: shown.params,
        retrievedAt: at.toISOString(),
        url: shown.url,
        cached,
      },
    };
  }

  private url(r: Pick<GetRequest, 'path' | 'params' | 'body'>, withSecrets: boolean): Shown {
    const u = new URL(this.o.baseUrl);
    u.pathname = `${u.pathname.replace(/\/+$/, '')}${r.path}`;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.params ?? {})) if (v !== undefined) params[k] = String(v);
    const all = withSecrets ? { ...params, ...this.o.secretParams } : params;
    u.search = new URLSearchParams(all).toString();
    const shownParams = { ...params };
    for (const [k, v] of Object.entries(r.body ?? {})) {
      if (v !== undefined) shownParams[k] = typeof v === 'string' ? v : JSON.stringify(v);
    }
    return { url: u.toString(), endpoint: r.path, params: shownParams };
  }

  /** One request within the bucket; a 429/503 with Retry-After is waited out once if short. */
  private async fetchJson(
    url: string,
    json: Record<string, unknown> | undefined,
    text: boolean
  ): Promise<{ status: number; body: unknown }> {
    const res = await this.exchange(
      url,
      json === undefined
        ? { accept: 'application/json' }
        : {
            accept: 'application/json',
            method: 'POST',
            contentType: 'application/json',
            body: JSON.stringify(json),
          }
    );
    const raw = (await this.read(res)).toString('utf8');
    if (res.status >= 500) this.httpFailure(res.status, res.statusText);
    // 204 No Content is an answer with nothing in it (Census's "no data").
    if (res.status === 204) return { status: 204, body: null };
    try {
      return { status: res.status, body: JSON.parse(raw) as unknown };
    } catch {
      // A 2xx answer that is not JSON: the text, when the request expects it (GDELT's errors).
      if (res.status >= 200 && res.status <= 299 && text) return { status: res.status, body: raw };
      if (res.status >= 200 && res.status <= 299) {
        throw new UnavailableError(
          `${this.o.source} did not answer with JSON; try again later, or ask the operator to ` +
            `check ${this.o.urlSetting}`
        );
      }
      return { status: res.status, body: raw };
    }
  }

  /**
   * Any request (a file, a page, a form POST) under the same bucket, Retry-After, time and size
   * limits and failures as `get`, answered as bytes and never cached: upstreams that are not JSON
   * APIs (zip files, PDFs, HTML behind a session) cache what they derive with `remember`.
   * Statuses under 500 come back for the caller to judge.
   */
  async request(r: RawRequest): Promise<RawAnswer> {
    const shown = this.url(r, false);
    const res = await this.exchange(this.url(r, true).url, {
      accept: r.accept ?? '*/*',
      method: r.method ?? 'GET',
      headers: r.headers ?? {},
      redirect: r.redirect ?? 'follow',
      ...(r.form
        ? {
            contentType: 'application/x-www-form-urlencoded',
            body: new URLSearchParams(r.form).toString(),
          }
        : {}),
    });
    const bytes = await this.read(res);
    if (res.status >= 500) this.httpFailure(res.status, res.statusText);
    const params = { ...shown.params };
    for (const [k, v] of Object.entries(r.form ?? {})) {
      if (!(r.hiddenForm ?? []).includes(k)) params[k] = v;
    }
    return {
      status: res.status,
      headers: res.headers,
      bytes,
      provenance: {
        source: this.o.source,
        endpoint: shown.endpoint,
        params,
        retrievedAt: new Date().toISOString(),
        url: shown.url,
        cached: false,
      },
    };
  }

  /**
   * A value derived from upstream answers (a parsed zip index, a PDF's rows), kept in the shared
   * cache under `key` with the provenance of the requests that made it; a hit says `cached`.
   */
  async remember<T>(
    key: string,
    produce: () => Promise<Remembered<T>>,
    ttlMs?: number
  ): Promise<Remembered<T>> {
    const k = createHash('sha256').update(`${this.o.source}\nderived\n${key}`).digest('hex');
    const hit = await readCached(this.o.sql, k);
    if (hit !== undefined) {
      const v = JSON.parse(hit.body) as Remembered<T>;
      return { value: v.value, provenance: v.provenance.map((p) => ({ ...p, cached: true })) };
    }
    const made = await produce();
    await writeCached(this.o.sql, {
      key: k,
      source: this.o.source,
      body: JSON.stringify(made),
      retrievedAt: new Date(),
      ttlMs: ttlMs ?? this.o.cacheTtlMs,
    });
    return made;
  }

  /** Send within the bucket; a 429/503 with Retry-After is waited out once if short. */
  private async exchange(url: string, init: SendInit): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      await this.throttle();
      const res = await this.send(url, init);
      const hold = this.o.holdAfter?.(res.headers);
      if (hold !== undefined && hold > 0) await blockUpstream(this.o.sql, this.o.bucket, hold);
      const retryAfter =
        retryAfterMs(res.headers.get('retry-after')) ??
        (res.status === 429 ? ((hold || undefined) ?? this.o.assumedRetryAfterMs) : undefined);
      if ((res.status === 429 || res.status === 503) && retryAfter !== undefined) {
        await res.body?.cancel().catch(() => undefined);
        await blockUpstream(this.o.sql, this.o.bucket, retryAfter);
        if (attempt === 0 && retryAfter <= MAX_WAIT_MS) continue;
        fail(
          `${this.o.source} is rate limiting this hub; try again in ${Math.ceil(retryAfter / 1000)} s`
        );
      }
      if (res.status === 429) {
        await res.body?.cancel().catch(() => undefined);
        fail(`${this.o.source} is rate limiting this hub (HTTP 429); try again later`);
      }
      return res;
    }
  }

  private async throttle(): Promise<void> {
    const rate = this.o.requestsPerMinute / 60;
    // A burst of ten seconds' worth, at least one request.
    const bucket = { rate, capacity: this.o.burst ?? Math.max(1, Math.floor(rate * 10)) };
    if (this.o.queueMs !== undefined) return this.queue(bucket, this.o.queueMs);
    for (;;) {
      const wait = await takeToken(this.o.sql, this.o.bucket, bucket);
      if (wait === 0) return;
      if (wait > MAX_WAIT_MS) {
        fail(
          `${this.o.source}'s request rate is used up on this hub; try again in ` +
            `${Math.ceil(wait / 1000)} s`
        );
      }
      await sleep(wait, undefined, { signal: this.o.signal });
    }
  }

  /** Reserve the next turn and wait for it; refuse only when the line is longer than `max`. */
  private async queue(bucket: { rate: number; capacity: number }, max: number): Promise<void> {
    for (;;) {
      const turn = await reserveToken(this.o.sql, this.o.bucket, bucket, max);
      if (turn.wait > max) {
        fail(
          `${this.o.source} takes one request at a time and the line is ${Math.ceil(turn.wait / 1000)} s ` +
            'long on this hub; try again later'
        );
      }
      if (turn.wait > 0) await sleep(turn.wait, undefined, { signal: this.o.signal });
      if (turn.reserved) return;
    }
  }

  private async send(url: string, init: SendInit): Promise<Response> {
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    try {
      return await fetch(url, {
        method: init.method ?? 'GET',
        redirect: init.redirect ?? 'follow',
        headers: {
          accept: init.accept,
          'user-agent': this.o.userAgent,
          ...(init.contentType !== undefined ? { 'content-type': init.contentType } : {}),
          ...init.headers,
          ...this.o.secretHeaders,
        },
        ...(init.body !== undefined ? { body: init.body } : {}),
        signal: AbortSignal.any([this.o.signal, timeout]),
      });
    } catch (err) {
      throw this.transportFailure(err, timeout);
    }
  }

  /** The body as text, within the time limit and PUBLIC_DATA_MAX_BYTES (never buffered beyond). */
  private async read(res: Response): Promise<Buffer> {
    const max = this.o.maxBytes;
    const tooLarge = () =>
      new UnavailableError(
        `${this.o.source} answered more than ${max} bytes (PUBLIC_DATA_MAX_BYTES); ask the ` +
          `operator to check ${this.o.urlSetting}`
      );
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > max) {
      await res.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    const reader = res.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
    if (reader === undefined) return Buffer.alloc(0);
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    // The body keeps arriving after the headers: the same time limit covers it.
    const onAbort = () => void reader.cancel().catch(() => undefined);
    timeout.addEventListener('abort', onAbort, { once: true });
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > max) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(value);
      }
    } catch (err) {
      throw this.transportFailure(err, timeout);
    } finally {
      timeout.removeEventListener('abort', onAbort);
    }
    if (timeout.aborted) throw this.transportFailure(new Error('aborted'), timeout);
    return Buffer.concat(chunks);
  }

  private transportFailure(err: unknown, timeout: AbortSignal): unknown {
    if (this.o.signal.aborted) return err;
    if (err instanceof HubError) return err;
    if (timeout.aborted) {
      return new UnavailableError(
        `${this.o.source} did not answer within ${this.o.timeoutMs} ms ` +
          '(PUBLIC_DATA_TIMEOUT_MS); try again later'
      );
    }
    return new UnavailableError(
      `${this.o.source} could not be reached (${reason(err)}); try again later, or ask the ` +
        `operator to check ${this.o.urlSetting}`,
      err
    );
  }

  private httpFailure(status: number, statusText = ''): never {
    const what = `${this.o.source} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
    if (status >= 500) throw new UnavailableError(`${what}; try again later`);
    if (status === 401 || status === 403) {
      fail(`${what}: the hub's credentials were refused; ask the operator to check them`);
    }
    fail(`${what}; the request could not be answered`);
  }
}

/** A request `Upstream.request` sends: any method, a form body, headers (cookies, a CSRF token). */
export interface RawRequest {
  /** Appended to the base URL's path. */
  path: string;
  params?: Record<string, string | number | undefined>;
  method?: 'GET' | 'POST';
  /** Sent as application/x-www-form-urlencoded; shown in provenance except `hiddenForm`. */
  form?: Record<string, string>;
  /** Form fields sent but never shown (a CSRF token). */
  hiddenForm?: string[];
  headers?: Record<string, string>;
  accept?: string;
  /** 'manual' to see a redirect (and the cookies it sets) instead of following it. */
  redirect?: 'follow' | 'manual';
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  provenance: Provenance;
}

/** A derived value and the provenance of the upstream answers it came from. */
export interface Remembered<T> {
  value: T;
  provenance: Provenance[];
}

interface SendInit {
  accept: string;
  method?: string;
  contentType?: string;
  headers?: Record<string, string>;
  body?: string;
  redirect?: 'follow' | 'manual';
}

interface Shown {
  url: string;
  endpoint: string;
  params: Record<string, string>;
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now. */
export function retryAfterMs(h: string | null, now = Date.now()): number | undefined {
  if (h === null || h.trim() === '') return undefined;
  const seconds = Number(h);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The low-level cause (ECONNREFUSED, ENOTFOUND, …) that fetch wraps in "fetch failed". */
function reason(err: unknown): string {
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  return err instanceof Error ? err.message : String(err);
}

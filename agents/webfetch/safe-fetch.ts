// Fetching a page without becoming a way into the hub's own network. Every hop (the first request
// and each redirect) is checked: http(s) only, the host resolved here and every address it has
// judged by the address policy, then the connection made to that checked address (pinned through
// `lookup`, so a second DNS answer cannot swap in another one). Redirects are followed by hand up
// to a limit; the body is cut at a byte limit; one deadline covers the whole fetch.
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Config } from '../../runtime/config/index.js';
import { HubError } from '../../runtime/errors/index.js';
import { fail } from '../kit/index.js';
import { allowableKind, refusal } from '../../runtime/net/index.js';

export type FetchLimits = Config['webfetch'];

export const TEXT_TYPES: ReadonlySet<string> = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'text/markdown',
]);

export interface FetchedPage {
  requestedUrl: string;
  /** Where the last redirect led. */
  finalUrl: string;
  status: number;
  /** The media type, lowercased, without parameters. */
  contentType: string;
  /** Decoded text of the body (of its first maxBytes bytes when truncated). */
  body: string;
  /** Bytes of the body read (decompressed). */
  bytes: number;
  truncated: boolean;
  /** Each redirect's target, in order. */
  redirects: string[];
  /** The Content-Language header, when sent. */
  contentLanguage: string | undefined;
}

export interface Resolved {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<Resolved[]>;

const defaultResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const USER_AGENT = 'Mozilla/5.0 (compatible; BurrowWebfetch/1.0)';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchPage(
  url: URL,
  limits: FetchLimits,
  outer: AbortSignal,
  resolver: Resolver = defaultResolver
): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = AbortSignal.any([outer, deadline]);
  try {
    return await follow(url, limits, signal, resolver);
  } catch (err) {
    if (outer.aborted) throw err;
    if (deadline.aborted) {
      fail(
        `the page did not load within ${limits.timeoutMs} ms (WEBFETCH_TIMEOUT_MS): ${url.href}`
      );
    }
    if (err instanceof HubError) throw err;
    fail(`could not fetch ${url.href}: ${networkReason(err)}`);
  }
}

async function follow(
  start: URL,
  limits: FetchLimits,
  signal: AbortSignal,
  resolver: Resolver
): Promise<FetchedPage> {
  const redirects: string[] = [];
  let current = start;
  for (;;) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      fail(
        `refused: ${redirects.length > 0 ? 'a redirect led' : 'the URL leads'} to ` +
          `${current.protocol.slice(0, -1)}: (${current.href}); only http and https are fetched`
      );
    }
    const target = await checkedAddress(current, limits.allowPrivate, signal, resolver);
    const res = await request(current, target, signal);
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      const location = res.headers.location;
      res.destroy();
      if (location === undefined || location === '') {
        fail(`${current.href} answered HTTP ${status} (a redirect) without saying where to`);
      }
      if (redirects.length >= limits.maxRedirects) {
        fail(
          `too many redirects: ${start.href} still redirected after ${limits.maxRedirects} ` +
            '(WEBFETCH_MAX_REDIRECTS)'
        );
      }
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        fail(`${current.href} redirected to an invalid URL: ${location}`);
      }
      next.hash = '';
      redirects.push(next.href);
      current = next;
      continue;
    }
    if (status < 200 || status > 299) {
      res.destroy();
      const text = res.statusMessage ? ` ${res.statusMessage}` : '';
      fail(`${current.href} answered HTTP ${status}${text}; no page to read`);
    }
    const { mime, charset } = contentTypeOf(res.headers['content-type']);
    if (!TEXT_TYPES.has(mime)) {
      res.destroy();
      fail(
        `${current.href} is ${mime === '' ? 'of no stated content type' : `${mime}`}, not a text ` +
          `page; webfetch reads only ${[...TEXT_TYPES].join(', ')}`
      );
    }
    const { bytes, truncated, data } = await readCapped(res, limits.maxBytes, signal);
    return {
      requestedUrl: start.href,
      finalUrl: current.href,
      status,
      contentType: mime,
      body: decode(data, charset, mime),
      bytes,
      truncated,
      redirects,
      contentLanguage: headerValue(res.headers['content-language']),
    };
  }
}

/** Resolves the host and judges every address; any refused address refuses the host. */
export async function checkedAddress(
  url: URL,
  allowPrivate: boolean,
  signal: AbortSignal,
  resolver: Resolver
): Promise<Resolved> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  let addresses: Resolved[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await abortable(resolver(host), signal);
    } catch (err) {
      if (signal.aborted) throw err;
      fail(`could not resolve the host ${host}: ${networkReason(err)}`);
    }
  }
  if (addresses.length === 0) fail(`the host ${host} has no address`);
  for (const a of addresses) {
    const why = refusal(a.address, allowPrivate);
    if (why === undefined) continue;
    const where = literal !== 0 ? `${host} is` : `${host} resolves to ${a.address},`;
    const advice = allowableKind(why.kind)
      ? 'webfetch does not reach into the hub’s own network; an operator who wants that sets ' +
        'WEBFETCH_ALLOW_PRIVATE=true'
      : 'such addresses are never fetched';
    fail(`refused: ${where} a ${why.kind} address (${why.range}); ${advice}`);
  }
  return addresses[0]!;
}

/** A `lookup` for http.request that always answers the address checked beforehand. */
export function pinnedLookup(target: Resolved): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all === true) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

function request(url: URL, target: Resolved, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        // No shared agent: a pooled socket must never carry a request to another checked address.
        agent: false,
        lookup: pinnedLookup(target),
        signal,
        headers: {
          'user-agent': USER_AGENT,
          accept:
            'text/html,application/xhtml+xml;q=0.9,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.1',
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en;q=0.9,*;q=0.5',
        },
      },
      resolve
    );
    req.on('error', reject);
    req.end();
  });
}

async function readCapped(
  res: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal
): Promise<{ bytes: number; truncated: boolean; data: Buffer }> {
  const body = decoded(res);
  const onAbort = () => body.destroy(signal.reason instanceof Error ? signal.reason : undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = maxBytes - bytes;
      if (chunk.length > room) {
        // Cut here and stop reading: a page larger than the limit is not downloaded whole.
        chunks.push(chunk.subarray(0, room));
        bytes += room;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    res.destroy();
    body.destroy();
  }
  signal.throwIfAborted();
  return { bytes, truncated, data: Buffer.concat(chunks) };
}

/** The body with its Content-Encoding undone; the byte limit counts decoded bytes. */
function decoded(res: IncomingMessage): Readable {
  const encoding = (headerValue(res.headers['content-encoding']) ?? 'identity').toLowerCase();
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;
  switch (encoding.trim()) {
    case '':
    case 'identity':
      return res;
    case 'gzip':
    case 'x-gzip':
      decoder = zlib.createGunzip();
      break;
    case 'deflate':
      decoder = zlib.createInflate();
      break;
    case 'br':
      decoder = zlib.createBrotliDecompress();
      break;
    default:
      res.destroy();
      fail(`the page is sent with an unsupported content encoding (${encoding})`);
  }
  res.on('error', (e) => decoder.destroy(e));
  return res.pipe(decoder);
}

export function contentTypeOf(header: string | undefined): {
  mime: string;
  charset: string | undefined;
} {
  if (header === undefined) return { mime: '', charset: undefined };
  const [type = '', ...params] = header.split(';');
  let charset: string | undefined;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p);
    if (m) charset = m[1]!.toLowerCase();
  }
  return { mime: type.trim().toLowerCase(), charset };
}

/** Bytes to text in the page's charset: the header's, else an HTML page's own <meta>, else UTF-8. */
export function decode(data: Buffer, charset: string | undefined, mime: string): string {
  let label = charset;
  if (label === undefined && (mime === 'text/html' || mime === 'application/xhtml+xml')) {
    const head = data.subarray(0, 2048).toString('latin1');
    const m =
      /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head) ??
      /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w-]+)/i.exec(head);
    label = m?.[1];
  }
  try {
    return new TextDecoder(label ?? 'utf-8').decode(data);
  } catch {
    return new TextDecoder('utf-8').decode(data);
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED…: the code, which says more than "fetch failed". */
function networkReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.message : String(err);
}

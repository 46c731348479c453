// Sends the bad-input corpus to a hub over raw sockets (so every byte, the HTTP version and the
// declared lengths are exactly the entry's) and judges each answer against the entry's expectation.
import net from 'node:net';
import WebSocket from 'ws';
import type {
  CorpusContext,
  CorpusEntry,
  HttpEntry,
  HttpExpectation,
  WsEntry,
} from './bad-input-corpus.js';

export interface RawAnswer {
  /** 0 when nothing came back before the connection closed or the time ran out. */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Milliseconds from connect to the whole answer, and to the server's close (if it closed). */
  readonly answeredMs: number | undefined;
  readonly closedMs: number | undefined;
}

/**
 * Writes `bytes` on a fresh connection and reads one response. Resolves when the response is
 * complete and the server has closed, or `timeoutMs` after connecting (the server may well stop
 * reading what it refused, so a write error is not a failure).
 */
export function rawHttp(port: number, bytes: Buffer, timeoutMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes, () => {}));
    let buf = Buffer.alloc(0);
    let answered: number | undefined;
    let closed: number | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponse(buf), answeredMs: answered, closedMs: closed });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (answered === undefined && isComplete(buf)) answered = performance.now() - started;
    });
    socket.on('close', () => {
      closed = performance.now() - started;
      finish();
    });
  });
}

function parseResponse(buf: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: '' };
  const [statusLine = '', ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1] ?? 0),
    headers,
    body: buf.subarray(end + 4).toString('utf8'),
  };
}

function isComplete(buf: Buffer): boolean {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const { status, headers } = parseResponse(buf);
  if (status === 204 || status === 304) return true;
  return buf.length - end - 4 >= Number(headers['content-length'] ?? Infinity);
}

/** What is wrong with an HTTP answer, or undefined when it is exactly what the entry expects. */
export function judgeHttp(entry: HttpEntry, a: RawAnswer): string | undefined {
  const e = entry.expect;
  if (a.status >= 500) return `HTTP ${a.status}: ${a.body.slice(0, 300)}`;
  if (e === undefined) return undefined;
  if (e === 'dropped') {
    if (a.status !== 0) return `answered ${a.status}: ${a.body.slice(0, 300)}`;
    return a.closedMs === undefined ? 'neither answered nor closed' : undefined;
  }
  if (e.resetMayHideAnswer === true && a.status === 0 && a.closedMs !== undefined) return undefined;
  if (a.status !== e.status)
    return `status ${a.status}, expected ${e.status}: ${a.body.slice(0, 300)}`;
  if (e.closes === true && a.closedMs === undefined) return 'the connection stayed open';
  if (e.status === 204) return a.body === '' ? undefined : `a 204 with a body: ${a.body}`;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(a.body) as Record<string, unknown>;
  } catch {
    return `not JSON: ${a.body.slice(0, 300)}`;
  }
  return e.restCode !== undefined ? judgeRest(e, json) : judgeRpc(e, json);
}

function judgeRpc(e: HttpExpectation, json: Record<string, unknown>): string | undefined {
  const error = json.error as { code?: number; message?: string; data?: unknown } | undefined;
  const shown = JSON.stringify(json).slice(0, 400);
  if (json.jsonrpc !== '2.0' || error === undefined) return `not a JSON-RPC error: ${shown}`;
  if (error.code !== e.rpcCode) return `code ${error.code}, expected ${e.rpcCode}: ${shown}`;
  if (json.id !== (e.id ?? null)) return `id ${JSON.stringify(json.id)}: ${shown}`;
  if (e.message && !e.message.test(error.message ?? '')) return `message: ${shown}`;
  const field = (error.data as { field?: unknown } | undefined)?.field;
  if (e.field !== undefined && field !== e.field) return `field ${String(field)}: ${shown}`;
  return undefined;
}

function judgeRest(e: HttpExpectation, json: Record<string, unknown>): string | undefined {
  const error = json.error as { code?: string; details?: unknown } | undefined;
  const shown = JSON.stringify(json).slice(0, 400);
  if (error?.code !== e.restCode)
    return `REST code ${error?.code}, expected ${e.restCode}: ${shown}`;
  const field = (error?.details as { field?: unknown } | undefined)?.field;
  if (e.field !== undefined && field !== e.field) return `field ${String(field)}: ${shown}`;
  return undefined;
}

/** An authenticated agent socket that collects every frame it receives. */
export interface CorpusSocket {
  send(data: string | Buffer, binary: boolean): void;
  /** The next frame, or undefined after `ms`. */
  next(ms?: number): Promise<Record<string, unknown> | undefined>;
  close(): Promise<void>;
}

export async function openCorpusSocket(hubUrl: string, key: string): Promise<CorpusSocket> {
  // First-frame auth: sockets authenticated by header may be dropped after `welcome` (issue 18,
  // item 4, fixed elsewhere), which is not what this corpus tests.
  const ws = new WebSocket(`${hubUrl.replace(/^http/, 'ws')}/ws`);
  const frames: Record<string, unknown>[] = [];
  const waiters: ((f: Record<string, unknown>) => void)[] = [];
  ws.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    const waiter = waiters.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'auth', token: key }));
  const socket: CorpusSocket = {
    send: (data, binary) => ws.send(data, { binary }),
    next: (ms = 5_000) => {
      const ready = frames.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          resolve(undefined);
        }, ms);
        const waiter = (f: Record<string, unknown>) => {
          clearTimeout(timer);
          resolve(f);
        };
        waiters.push(waiter);
      });
    },
    close: () =>
      new Promise((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
  const welcome = await socket.next();
  if (welcome?.type !== 'welcome') throw new Error(`no welcome: ${JSON.stringify(welcome)}`);
  return socket;
}

let fences = 0;

/**
 * Sends one WS entry, then a fence (a JSON-RPC call of an unknown method); judges the frames that
 * came back with the fence's answer. Frames are handled concurrently, so the entry's own answer may
 * come after the fence's: unless the entry expects silence, its answer is waited for as well.
 */
export async function runWsEntry(
  socket: CorpusSocket,
  entry: WsEntry,
  c: CorpusContext
): Promise<string | undefined> {
  const fence = `fence-${++fences}`;
  socket.send(entry.frame(c), entry.binary === true);
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: fence, method: 'corpus/fence' }), false);
  const e = entry.expect;
  const got: Record<string, unknown>[] = [];
  let fenced = false;
  while (!fenced || (e.silent !== true && got.length === 0)) {
    const frame = await socket.next();
    if (frame === undefined)
      return `no answer (fence seen: ${fenced}, frames: ${JSON.stringify(got)})`;
    if (frame.id === fence) fenced = true;
    else got.push(frame);
  }
  if (e.silent === true) return got.length === 0 ? undefined : `got ${JSON.stringify(got)}`;
  if (got.length !== 1) return `${got.length} frames: ${JSON.stringify(got).slice(0, 400)}`;
  const first = got[0] as Record<string, unknown>;
  const shown = JSON.stringify(first).slice(0, 400);
  if (e.error !== undefined) {
    return first.type === 'error' && first.error === e.error ? undefined : `got ${shown}`;
  }
  const error = first.error as { code?: number; message?: string; data?: unknown } | undefined;
  if (first.jsonrpc !== '2.0' || error?.code !== e.rpcCode) return `got ${shown}`;
  if (e.id !== undefined && first.id !== e.id) return `id: ${shown}`;
  const field = (error?.data as { field?: unknown } | undefined)?.field;
  if (e.field !== undefined && field !== e.field) return `field: ${shown}`;
  return undefined;
}

/** Runs every entry once; returns "<name>: <problem>" for each that did not answer as expected. */
export async function runCorpus(
  corpus: readonly CorpusEntry[],
  hubUrl: string,
  socket: CorpusSocket,
  c: CorpusContext
): Promise<{ problems: string[]; slowestCloseMs: number }> {
  const port = Number(new URL(hubUrl).port);
  const problems: string[] = [];
  let slowestCloseMs = 0;
  for (const entry of corpus) {
    if (entry.kind === 'ws') {
      const problem = await runWsEntry(socket, entry, c);
      if (problem) problems.push(`${entry.name}: ${problem}`);
      continue;
    }
    // Entries the hub cannot answer are not waited for in full: uWS holds them to its timeout.
    const answer = await rawHttp(port, entry.request(c), entry.expect ? 5_000 : 300);
    const problem = judgeHttp(entry, answer);
    if (problem) problems.push(`${entry.name}: ${problem}`);
    const closes = typeof entry.expect === 'object' && entry.expect.closes === true;
    if (closes && answer.closedMs !== undefined) {
      slowestCloseMs = Math.max(slowestCloseMs, answer.closedMs);
    }
  }
  return { problems, slowestCloseMs };
}

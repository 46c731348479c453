// Runs fuzz cases against a hub with bounded concurrency and judges every answer. Requests with
// the right key come from one loopback address; the rest rotate over many, so the failed-login
// limit (per client address) does not turn the whole run into 429s.
import http from 'node:http';
import WebSocket from 'ws';
import { fuzzCase, type FuzzKeys, type HttpCase, type WsCase } from './cases.js';
import { mulberry32 } from './prng.js';
import {
  checkRest,
  checkRpcReply,
  checkWsFrame,
  isNotification,
  requestId,
  type Verdict,
} from './shape.js';

export interface FuzzRunOptions {
  readonly hubUrl: string;
  readonly keys: FuzzKeys;
  /** Keys of the agents whose WebSockets carry the authenticated frames (one socket each). */
  readonly wsKeys: readonly string[];
  readonly seed: number;
  readonly count: number;
  readonly concurrency: number;
  /** Longest wait for one answer. */
  readonly timeoutMs?: number;
}

export interface FuzzProblem {
  readonly index: number;
  readonly target: string;
  readonly problem: string;
  readonly input: string;
}

export interface FuzzReport {
  readonly seed: number;
  readonly total: number;
  readonly byTarget: Record<string, number>;
  readonly outcomes: Record<string, number>;
  readonly problems: FuzzProblem[];
  readonly elapsedMs: number;
}

const GOOD_ADDRESS = '127.0.0.3';
const badAddress = (i: number) => `127.0.1.${1 + (i % 250)}`;

interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
}

function sendHttp(
  base: URL,
  c: HttpCase,
  localAddress: string,
  agent: http.Agent,
  timeoutMs: number
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: c.method,
        path: c.path,
        headers: c.body ? { ...c.headers, 'content-length': String(c.body.length) } : c.headers,
        localAddress,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        const contentType = String(res.headers['content-type'] ?? '');
        // A stream that stays open is judged on what it sent within a second.
        const cut = contentType.startsWith('text/event-stream')
          ? setTimeout(() => res.destroy(), 1_000)
          : undefined;
        const done = () => {
          clearTimeout(cut);
          resolve({
            status: res.statusCode ?? 0,
            contentType,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        };
        res.on('data', (b: Buffer) => chunks.push(b));
        res.on('end', done);
        res.on('close', done);
        res.on('error', () => done());
      }
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(c.body);
  });
}

/** The authenticated WebSockets the good-key frames go over; each case ends with a ping. */
class WsPool {
  private readonly sockets: Array<{ ws: WebSocket; pongs: Array<() => void> }> = [];
  private turn = 0;
  constructor(
    private readonly url: string,
    /** One key per socket: the hub keeps one live connection per agent. */
    private readonly keys: readonly string[],
    private readonly onFrame: (text: string) => void,
    private readonly onProblem: (p: string) => void
  ) {}

  async open(): Promise<void> {
    for (const key of this.keys) this.sockets.push(await this.connect(key));
  }

  private connect(key: string): Promise<{ ws: WebSocket; pongs: Array<() => void> }> {
    const ws = new WebSocket(this.url, {
      headers: { authorization: `Bearer ${key}` },
      localAddress: GOOD_ADDRESS,
    });
    const slot = { ws, pongs: [] as Array<() => void> };
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text === '{"type":"pong"}') slot.pongs.shift()?.();
      this.onFrame(text);
    });
    ws.on('close', (code) => {
      if (!this.closing) this.onProblem(`an authenticated socket was closed (${code})`);
      for (const p of slot.pongs.splice(0)) p();
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(slot));
      ws.once('error', reject);
    });
  }

  private closing = false;

  async send(frame: string | Buffer, timeoutMs: number): Promise<void> {
    const i = this.turn++ % this.sockets.length;
    let slot = this.sockets[i]!;
    if (slot.ws.readyState !== WebSocket.OPEN) {
      slot = await this.connect(this.keys[i]!);
      this.sockets[i] = slot;
    }
    const s = slot;
    s.ws.send(frame, { binary: Buffer.isBuffer(frame) });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no pong')), timeoutMs);
      s.pongs.push(() => {
        clearTimeout(timer);
        resolve();
      });
      s.ws.send('{"type":"ping"}');
    });
  }

  close(): void {
    this.closing = true;
    for (const s of this.sockets) s.ws.close();
  }
}

/** A fresh socket without a right key: whatever it is sent, it may only hear errors. */
function badSocket(url: string, c: WsCase, localAddress: string): Promise<string[]> {
  return new Promise((resolve) => {
    const frames: string[] = [];
    const ws = new WebSocket(url, {
      ...(c.badHeader ? { headers: { authorization: c.badHeader } } : {}),
      localAddress,
    });
    const finish = setTimeout(() => ws.terminate(), 500);
    ws.on('message', (d: Buffer) => frames.push(d.toString('utf8')));
    ws.on('open', () => ws.send(c.frame, { binary: Buffer.isBuffer(c.frame) }));
    ws.on('error', () => undefined);
    ws.on('close', () => {
      clearTimeout(finish);
      resolve(frames);
    });
  });
}

function describeInput(c: HttpCase | WsCase): string {
  if (c.kind === 'ws')
    return `ws frame ${JSON.stringify(c.frame.toString('latin1').slice(0, 200))}`;
  const body = c.body ? c.body.toString('latin1').slice(0, 200) : '';
  return `${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(c.headers).slice(0, 300)} ${JSON.stringify(body)}`;
}

export async function runFuzz(o: FuzzRunOptions): Promise<FuzzReport> {
  const started = Date.now();
  const timeoutMs = o.timeoutMs ?? 15_000;
  const rng = mulberry32(o.seed);
  // Generated up front, in order: the same seed gives the same inputs whatever the timing.
  const cases = Array.from({ length: o.count }, () => fuzzCase(rng, o.keys));
  const base = new URL(o.hubUrl);
  const wsUrl = o.hubUrl.replace(/^http/, 'ws') + '/ws';
  const byTarget: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  const problems: FuzzProblem[] = [];
  const judge = (index: number, c: HttpCase | WsCase, v: Verdict) => {
    if (v.ok) outcomes[v.outcome] = (outcomes[v.outcome] ?? 0) + 1;
    else problems.push({ index, target: c.target, problem: v.problem, input: describeInput(c) });
  };
  let current: { index: number; c: WsCase } | undefined;
  const pool = new WsPool(
    wsUrl,
    o.wsKeys,
    (text) => {
      const v = checkWsFrame(text);
      if (current) judge(current.index, current.c, v);
    },
    (problem) => problems.push({ index: -1, target: 'ws', problem, input: '' })
  );
  await pool.open();
  const goodAgent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const badAgent = new http.Agent({ keepAlive: false, maxSockets: o.concurrency });

  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      if (index >= cases.length) return;
      const c = cases[index]!;
      byTarget[c.target] = (byTarget[c.target] ?? 0) + 1;
      try {
        if (c.kind === 'http') {
          const good = c.goodAuth;
          const a = await sendHttp(
            base,
            c,
            good ? GOOD_ADDRESS : badAddress(index),
            good ? goodAgent : badAgent,
            timeoutMs
          );
          judge(
            index,
            c,
            c.answers === 'rest'
              ? checkRest(a.status, a.contentType, a.body)
              : checkRpcReply(
                  a.status,
                  a.contentType,
                  a.body,
                  requestId(c.body),
                  isNotification(c.body)
                )
          );
        } else if (c.goodAuth) {
          current = { index, c };
          await pool.send(c.frame, timeoutMs);
          outcomes['ws frame answered'] = (outcomes['ws frame answered'] ?? 0) + 1;
        } else {
          const frames = await badSocket(wsUrl, c, badAddress(index));
          for (const f of frames) judge(index, c, checkWsFrame(f));
          outcomes['ws unauthenticated'] = (outcomes['ws unauthenticated'] ?? 0) + 1;
        }
      } catch (err) {
        judge(index, c, { ok: false, problem: `no answer: ${(err as Error).message}` });
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  pool.close();
  goodAgent.destroy();
  badAgent.destroy();
  return {
    seed: o.seed,
    total: cases.length,
    byTarget,
    outcomes,
    problems,
    elapsedMs: Date.now() - started,
  };
}

// A WebSocket agent for tests: a real `ws` client that records every frame it receives and can
// wait for the next frame of a given type.
import WebSocket from 'ws';

export interface Frame {
  type?: string;
  [k: string]: unknown;
}

export interface TestWsAgent {
  readonly ws: WebSocket;
  readonly frames: Frame[];
  next(type: string, timeoutMs?: number): Promise<Frame>;
  send(frame: unknown): void;
  close(): Promise<void>;
}

export async function connectWsAgent(
  hubUrl: string,
  apiKey: string | undefined,
  opts: { legacyAuth?: boolean; waitWelcome?: boolean } = {}
): Promise<TestWsAgent> {
  const url = hubUrl.replace(/^http/, 'ws') + '/ws';
  const ws = new WebSocket(
    url,
    apiKey && !opts.legacyAuth ? { headers: { authorization: `Bearer ${apiKey}` } } : {}
  );
  const frames: Frame[] = [];
  const waiters: Array<{ type: string; resolve: (f: Frame) => void }> = [];
  let consumed = 0;
  ws.on('message', (data) => {
    const f = JSON.parse((data as Buffer).toString()) as Frame;
    frames.push(f);
    const i = waiters.findIndex((w) => w.type === f.type);
    if (i >= 0) {
      const [w] = waiters.splice(i, 1);
      consumed = frames.length;
      w!.resolve(f);
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  if (opts.legacyAuth && apiKey) ws.send(JSON.stringify({ type: 'auth', token: apiKey }));
  const agent: TestWsAgent = {
    ws,
    frames,
    next(type, timeoutMs = 10_000) {
      const seen = frames.slice(consumed).find((f) => f.type === type);
      if (seen) {
        consumed = frames.indexOf(seen) + 1;
        return Promise.resolve(seen);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no ${type} frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`)
            ),
          timeoutMs
        );
        waiters.push({
          type,
          resolve: (f) => {
            clearTimeout(timer);
            resolve(f);
          },
        });
      });
    },
    send(frame) {
      ws.send(JSON.stringify(frame));
    },
    close() {
      if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise((resolve) => {
        ws.once('close', () => resolve());
        ws.close();
      });
    },
  };
  if (opts.waitWelcome !== false && apiKey) await agent.next('welcome');
  return agent;
}

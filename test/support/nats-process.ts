// One nats-server child process for the test launchers: spawn with output to a log file, wait for
// readiness, stop (SIGTERM, then SIGKILL) and kill. Anything still running at exit is killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { trackProcess } from './cleanup.js';

/** The nats-server binary; tests never use the shared server on 4222, they start their own. */
export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

const STOP_TIMEOUT_MS = 10_000;

export class NatsProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private spawnError: Error | undefined;

  /** `netns`: run the server in that network namespace (`ip netns exec`, which execs: same pid). */
  constructor(
    private readonly logFile: string,
    private readonly netns?: string
  ) {}

  get pid(): number {
    return this.child?.pid ?? -1;
  }

  /** Spawn the server; output (and anything it prints before -l takes effect) goes to logFile. */
  spawn(args: readonly string[]): void {
    if (this.child) throw new Error(`nats-server already running (pid ${this.pid})`);
    const fd = openSync(this.logFile, 'a');
    let child: ChildProcess;
    try {
      child = this.netns
        ? spawn('ip', ['netns', 'exec', this.netns, NATS_SERVER_BIN, ...args], {
            stdio: ['ignore', fd, fd],
          })
        : spawn(NATS_SERVER_BIN, args, { stdio: ['ignore', fd, fd] });
    } finally {
      closeSync(fd);
    }
    this.child = child;
    trackProcess(child);
    this.exited = new Promise((resolve) => {
      const done = (): void => {
        if (this.child === child) this.child = undefined;
        resolve();
      };
      child.once('exit', done);
      // A spawn failure (e.g. ENOENT: no binary at NATS_SERVER_BIN) emits 'error', never 'exit'.
      child.once('error', (err) => {
        this.spawnError = err;
        done();
      });
    });
  }

  /**
   * Poll `probe` until it yields a value (not undefined/false); fail early if the process exits,
   * or after timeoutMs, with the tail of the server log in the message.
   */
  async waitFor<T>(
    what: string,
    probe: () => Promise<T | undefined | false>,
    timeoutMs: number
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let gone = false;
    void this.exited.then(() => (gone = true));
    while (Date.now() < deadline) {
      if (gone || !this.child) {
        const why = this.spawnError
          ? `${NATS_SERVER_BIN}: ${this.spawnError.message}`
          : this.logTail();
        throw new Error(`nats-server exited before ${what}\n${why}`);
      }
      const value = await probe().catch(() => undefined);
      if (value !== undefined && value !== false) return value;
      await sleep(50);
    }
    throw new Error(`nats-server not ${what} after ${timeoutMs} ms\n${this.logTail()}`);
  }

  /** SIGTERM and wait for the exit; SIGKILL if it takes longer than 10 s. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }

  /** SIGKILL (a crash, no clean shutdown) and wait for the exit. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGKILL');
    await this.exited;
  }

  logTail(bytes = 2000): string {
    try {
      const text = readFileSync(this.logFile, 'utf8');
      return `--- ${this.logFile} (tail) ---\n${text.slice(-bytes)}`;
    } catch {
      return `(no log at ${this.logFile})`;
    }
  }
}

/** GET a monitoring endpoint as JSON. */
export async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

/** True if something accepts TCP connections on 127.0.0.1:port. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** `n` distinct ports free right now: the cluster launcher's, shared with the tests. */
export { freePorts } from '../../infra/cluster/layout.js';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

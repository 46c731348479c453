// A hub node as a child process (`node --import tsx infra/bin/hub.ts`), for tests that need a real
// crash (SIGKILL) or a real signal-driven shutdown. Output goes to a log file, not the test output.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { removeDir, trackDir, trackProcess } from './cleanup.js';
import { freePorts } from './nats-process.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface HubProcess {
  readonly url: string;
  readonly port: number;
  readonly nodeId: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (or null when killed by a signal). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  log(): string;
  kill(signal?: NodeJS.Signals): void;
  /** SIGKILL if still running, wait for the exit, remove the temp dir (and the log with it). */
  close(): Promise<void>;
}

export interface HubProcessOptions {
  env: Record<string, string>;
  /**
   * The hub's entry file; default this tree's infra/bin/hub.ts (A/B benchmarks name another tree's,
   * or the build's dist/infra/bin/hub.js, run without tsx).
   */
  entry?: string;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] (not allowed in NODE_OPTIONS). */
  nodeArgs?: readonly string[];
  /** Wait until GET /health answers (any status). Default true. */
  waitReady?: boolean;
  readyTimeoutMs?: number;
  /** Run in this network namespace (`ip netns exec`, which execs: same pid), reached at `host`. */
  netns?: { name: string; host: string; port: number };
}

export async function startHubProcess(opts: HubProcessOptions): Promise<HubProcess> {
  const port = opts.netns?.port ?? (await freePorts(1))[0];
  const nodeId = opts.env.NODE_ID ?? `n${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'burrow-hub-'));
  // Removed at exit even without close(): tests read the log after the process has gone.
  trackDir(dir);
  const logFile = join(dir, 'hub.log');
  const fd = openSync(logFile, 'a');
  const entry = opts.entry ?? join(ROOT, 'infra/bin/hub.ts');
  // A built entry (dist/…/hub.js, what `npm start` runs) needs no TypeScript loader.
  const argv = [
    ...(opts.nodeArgs ?? []),
    ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []),
    entry,
  ];
  const child: ChildProcess = spawn(
    opts.netns ? 'ip' : process.execPath,
    opts.netns ? ['netns', 'exec', opts.netns.name, process.execPath, ...argv] : argv,
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        NODE_ID: nodeId,
        LOG_LEVEL: 'info',
        SMTP_LISTEN_PORT: '0',
        OUTBOUND_ALLOW_PRIVATE: 'true',
        ...opts.env,
      },
      stdio: ['ignore', fd, fd],
    }
  );
  closeSync(fd);
  trackProcess(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal }))
  );
  const url = `http://${opts.netns?.host ?? '127.0.0.1'}:${port}`;
  const handle: HubProcess = {
    url,
    port: port!,
    nodeId,
    pid: child.pid ?? -1,
    logFile,
    exited,
    log: () => readFileSync(logFile, 'utf8'),
    kill: (signal = 'SIGTERM') => void child.kill(signal),
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      removeDir(dir);
    },
  };
  if (opts.waitReady !== false) {
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
    let done = false;
    void exited.then(() => (done = true));
    for (;;) {
      if (done) throw new Error(`hub exited during start-up:\n${handle.log()}`);
      try {
        await fetch(`${url}/health`);
        break;
      } catch {
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`hub did not answer within the timeout:\n${handle.log()}`);
        }
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  }
  return handle;
}

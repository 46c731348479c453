// A private nats-server with JetStream for one test file: random ports (never the shared 4222),
// its own store dir under a temp dir, log to a file there. stop/restart keep the port and the store.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir, trackDir } from './cleanup.js';
import { NatsProcess, accepts, getJson } from './nats-process.js';

export interface NatsServerOptions {
  /** More nats-server flags, e.g. ['--max_payload', '65536']. */
  extraArgs?: readonly string[];
  /** How long start and restart may take. Default 15 s. */
  readyTimeoutMs?: number;
}

export interface NatsServerHandle {
  /** nats://127.0.0.1:<port>; unchanged by restart(). */
  readonly url: string;
  readonly port: number;
  /** http://127.0.0.1:<port> of the monitoring endpoints (/jsz, /varz, …). */
  readonly monitorUrl: string;
  /** The current process id; changes on restart(), -1 while stopped. */
  readonly pid: number;
  /** The temp dir holding the store (`store/`), the log and the pid file. */
  readonly dir: string;
  readonly storeDir: string;
  readonly logFile: string;
  /** SIGTERM and wait for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit: a crash. */
  kill(): Promise<void>;
  /** Start again (stopping first if running) on the same port with the same store. */
  restart(): Promise<void>;
  /** stop() and remove the temp dir. */
  close(): Promise<void>;
}

interface PortsFile {
  nats?: string[];
  monitoring?: string[];
}

/** Start nats-server -js on free ports and resolve once clients and JetStream are ready. */
export async function startNatsServer(opts: NatsServerOptions = {}): Promise<NatsServerHandle> {
  const timeoutMs = opts.readyTimeoutMs ?? 15_000;
  const dir = mkdtempSync(join(tmpdir(), 'burrow-nats-'));
  trackDir(dir);
  const storeDir = join(dir, 'store');
  const logFile = join(dir, 'nats.log');
  const proc = new NatsProcess(logFile);
  const common = ['-a', '127.0.0.1', '-js', '-sd', storeDir, '-P', join(dir, 'nats.pid')];
  const tail = ['-l', logFile, ...(opts.extraArgs ?? [])];

  try {
    // Port -1 lets the server pick, so no other process can take the port between choice and
    // bind; the ports file tells us which it took. Restarts then name that port explicitly.
    proc.spawn([...common, '-p', '-1', '-m', '-1', '--ports_file_dir', dir, ...tail]);
    const { port, monitorPort } = await proc.waitFor(
      'writing its ports file',
      () => Promise.resolve(readPortsFile(dir, proc.pid)),
      timeoutMs
    );
    const monitorUrl = `http://127.0.0.1:${monitorPort}`;
    const ready = async (): Promise<void> => {
      await proc.waitFor('ready for JetStream', () => jetStreamReady(monitorUrl, port), timeoutMs);
    };
    await ready();

    return {
      url: `nats://127.0.0.1:${port}`,
      port,
      monitorUrl,
      get pid() {
        return proc.pid;
      },
      dir,
      storeDir,
      logFile,
      stop: () => proc.stop(),
      kill: () => proc.kill(),
      async restart() {
        await proc.stop();
        proc.spawn([...common, '-p', String(port), '-m', String(monitorPort), ...tail]);
        await ready();
      },
      async close() {
        await proc.stop();
        removeDir(dir);
      },
    };
  } catch (err) {
    await proc.kill();
    removeDir(dir);
    throw err;
  }
}

function readPortsFile(
  dir: string,
  pid: number
): { port: number; monitorPort: number } | undefined {
  const name = readdirSync(dir).find((f) => f.endsWith(`_${pid}.ports`));
  if (!name) return undefined;
  let parsed: PortsFile;
  try {
    parsed = JSON.parse(readFileSync(join(dir, name), 'utf8')) as PortsFile;
  } catch {
    return undefined; // caught mid-write; the next poll reads it whole
  }
  const client = parsed.nats?.[0];
  const monitor = parsed.monitoring?.[0];
  if (!client || !monitor) return undefined;
  return { port: Number(new URL(client).port), monitorPort: Number(new URL(monitor).port) };
}

/** /jsz answers with a JetStream config (not `disabled`) and the client port accepts. */
async function jetStreamReady(monitorUrl: string, port: number): Promise<boolean> {
  const jsz = (await getJson(`${monitorUrl}/jsz`)) as { config?: unknown; disabled?: boolean };
  return jsz.config !== undefined && jsz.disabled !== true && (await accepts(port));
}

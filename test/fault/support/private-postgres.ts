// A private PostgreSQL 15 instance for the fault tests that restart PostgreSQL: the machine's shared
// server on 5432 serves everyone else and must never be restarted. initdb refuses to run as root,
// so as root every pg binary runs as the postgres user (runuser), in a temp dir it owns.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync } from 'node:fs';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atExit, removeDir, trackDir } from '../../support/cleanup.js';
import { freePorts } from '../../support/nats-process.js';

const PG_BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
  readonly port: number;
  /** postgres://postgres@127.0.0.1:<port>/<name> */
  url(name: string): string;
  /** pg_ctl restart -m fast: every connection is cut, the server is back when this resolves. */
  restart(): void;
  stop(): void;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-pg-'));
  trackDir(dir);
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const pw = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(pw), Number(gid));
  }
  const run = (bin: string, args: string[]): void => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, bin), ...args]]
      : [join(PG_BIN, bin), args];
    const r = spawnSync(cmd, argv, { encoding: 'utf8' });
    if (r.status !== 0) {
      throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
    }
  };
  const [port] = await freePorts(1);
  const data = join(dir, 'data');
  // fsync off: a test server on a shared 2-core box; restarts are clean (fast shutdown).
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const log = join(dir, 'postgres.log');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  run('pg_ctl', ['-D', data, '-o', opts, '-l', log, '-w', 'start']);
  let running = true;
  const forget = atExit(() => {
    if (running)
      spawnSync(
        asRoot ? 'runuser' : join(PG_BIN, 'pg_ctl'),
        asRoot
          ? ['-u', 'postgres', '--', join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']
          : ['-D', data, '-m', 'immediate', 'stop']
      );
  });
  return {
    port: port!,
    url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    restart: () =>
      run('pg_ctl', ['-D', data, '-o', opts, '-l', log, '-m', 'fast', '-w', 'restart']),
    stop() {
      if (!running) return;
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
      forget();
      removeDir(dir);
    },
  };
}

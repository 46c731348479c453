// CPU time of the processes a benchmark involves, read from Linux /proc before and after a measured
// window, so each process's share of the work per request can be set beside the others'. A process
// counts with all its descendants (a tsx loader, a worker, a spawned helper); threads are already
// in their process's figures. PostgreSQL is a server shared with anything else on this machine:
// the backends serving the benchmark's database are counted apart from the server's own processes
// (postmaster, WAL writer, checkpointer…), which also work for every other database on it.
import { readdirSync, readFileSync } from 'node:fs';
import type { Db } from '../../infra/db/index.js';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on every Linux we run on). */
const TICKS = 100;

interface Stat {
  ppid: number;
  /** utime + stime, in seconds. */
  cpu: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / TICKS };
  } catch {
    return undefined;
  }
}

function allStats(): Map<number, Stat> {
  const out = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s) out.set(Number(name), s);
  }
  return out;
}

/** CPU seconds of each root and all its living descendants, keyed by root. */
function treeSeconds(roots: readonly number[], stats = allStats()): Map<number, number> {
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) {
    const list = children.get(s.ppid);
    if (list) list.push(pid);
    else children.set(s.ppid, [pid]);
  }
  const out = new Map<number, number>();
  for (const root of roots) {
    let sum = 0;
    const todo = [root];
    for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
      sum += stats.get(pid)?.cpu ?? 0;
      todo.push(...(children.get(pid) ?? []));
    }
    out.set(root, sum);
  }
  return out;
}

/** Busy and total CPU seconds of the whole machine so far (/proc/stat, all cores). */
function machineSeconds(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9);
  const n = f.map(Number);
  const total = n.reduce((a, b) => a + b, 0);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  return { busy: (total - idle) / TICKS, total: total / TICKS };
}

/** PostgreSQL's processes: the backends of one database, and the server's own. */
async function postgresPids(sql: Db, database: string) {
  const rows = await sql<Array<{ pid: number; datname: string | null; kind: string }>>`
    select pid, datname, backend_type as kind from pg_stat_activity`;
  const backends = rows
    .filter((r) => r.datname === database && r.kind === 'client backend')
    .map((r) => r.pid);
  const own = rows.filter((r) => r.kind !== 'client backend').map((r) => r.pid);
  // The postmaster is the parent of every backend; pg_stat_activity does not list it.
  const postmaster = rows.length > 0 ? readStat(rows[0]!.pid)?.ppid : undefined;
  if (postmaster !== undefined && postmaster > 1) own.push(postmaster);
  return { backends, own };
}

export interface CpuWindow {
  seconds: number;
  /** CPU seconds each named process tree used during the window. */
  processes: Record<string, number>;
  /** The benchmark database's backends during the window (ones that ended meanwhile are missed). */
  postgresBackends: number;
  /** The PostgreSQL server's own processes: shared with every database on the server. */
  postgresServer: number;
  /** Busy CPU seconds of the whole machine during the window, all cores. */
  machineBusy: number;
  /** Cores of the machine busy on average during the window, and how many of them were ours. */
  machineCores: number;
  ourCores: number;
}

/**
 * Start a CPU window over the named process trees, this process alone as `loadGenerator` (its
 * children are the hub, the agent… and counted under their own names), and PostgreSQL's processes
 * for `database` when `pg` is given. The returned function closes the window.
 */
export async function cpuWindow(
  trees: Record<string, number>,
  pg?: { sql: Db; database: string }
): Promise<() => Promise<CpuWindow>> {
  const roots = Object.values(trees);
  const self0 = readStat(process.pid)?.cpu ?? 0;
  const pgBefore = pg ? await postgresPids(pg.sql, pg.database) : undefined;
  const stats0 = allStats();
  const tree0 = treeSeconds(roots, stats0);
  const m0 = machineSeconds();
  const t0 = performance.now();
  return async () => {
    const stats1 = allStats();
    const tree1 = treeSeconds(roots, stats1);
    const m1 = machineSeconds();
    const seconds = (performance.now() - t0) / 1000;
    const processes: Record<string, number> = {};
    for (const [name, pid] of Object.entries(trees)) {
      processes[name] = (tree1.get(pid) ?? 0) - (tree0.get(pid) ?? 0);
    }
    processes['loadGenerator'] = (readStat(process.pid)?.cpu ?? 0) - self0;
    let postgresBackends = 0;
    let postgresServer = 0;
    if (pg && pgBefore) {
      const after = await postgresPids(pg.sql, pg.database);
      // A pid seen only at the end started inside the window: all of its time counts.
      const delta = (pid: number) => (stats1.get(pid)?.cpu ?? 0) - (stats0.get(pid)?.cpu ?? 0);
      for (const pid of new Set([...pgBefore.backends, ...after.backends]))
        postgresBackends += delta(pid);
      for (const pid of new Set([...pgBefore.own, ...after.own])) postgresServer += delta(pid);
    }
    const machineBusy = m1.busy - m0.busy;
    const ours =
      Object.values(processes).reduce((a, b) => a + b, 0) + postgresBackends + postgresServer;
    return {
      seconds,
      processes,
      postgresBackends,
      postgresServer,
      machineBusy,
      machineCores: machineBusy / seconds,
      ourCores: ours / seconds,
    };
  };
}

/**
 * Wait until the process trees are all but idle (each below `cores` over a second, twice in a
 * row), at most `maxSeconds`: work a hub does in the background after a load (index writes,
 * removals) must not land in the next measured window. Resolves with the seconds waited.
 */
export async function settle(pids: readonly number[], maxSeconds = 60, cores = 0.05) {
  const t0 = performance.now();
  let quiet = 0;
  let before = treeSeconds(pids);
  while (quiet < 2 && performance.now() - t0 < maxSeconds * 1000) {
    await new Promise((r) => setTimeout(r, 1000));
    const after = treeSeconds(pids);
    const busiest = Math.max(...pids.map((p) => (after.get(p) ?? 0) - (before.get(p) ?? 0)));
    quiet = busiest < cores ? quiet + 1 : 0;
    before = after;
  }
  return (performance.now() - t0) / 1000;
}

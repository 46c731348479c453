// Child processes that outlive the CLI: spawned detached with output to a log file, identified
// later only by the pid recorded in the state file. Before signalling a pid we check that it still
// runs the program we started (pids are reused), and a zombie counts as gone.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export function spawnDetached(
  command: string,
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; logFile: string }
): number {
  const fd = openSync(opts.logFile, 'a');
  try {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    child.unref();
    if (child.pid === undefined) throw new Error(`could not start ${command}`);
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

/**
 * Is `pid` alive and still running a command line that contains `marker` (e.g. 'nats-server',
 * 'hub.')? Zombies and reused pids answer false.
 */
export function isOurs(pid: number, marker: string): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 3, after the parenthesised command name, is the state; Z is a zombie.
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return cmdline.includes(marker);
  } catch {
    // No /proc (not Linux): the signal-0 probe is all we have.
    return true;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Send `signal` to each process still ours; returns how many were signalled. */
export function signalAll(
  procs: ReadonlyArray<{ pid: number; marker: string }>,
  signal: NodeJS.Signals
): number {
  let n = 0;
  for (const p of procs) {
    if (!isOurs(p.pid, p.marker)) continue;
    try {
      process.kill(p.pid, signal);
      n++;
    } catch {
      // exited between the check and the signal
    }
  }
  return n;
}

/** Wait until none of `procs` is alive, up to `ms`; returns those still alive. */
export async function waitGone<T extends { pid: number; marker: string }>(
  procs: readonly T[],
  ms: number
): Promise<T[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = procs.filter((p) => isOurs(p.pid, p.marker));
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await sleep(100);
  }
}

/** SIGTERM, wait up to `graceMs`, then SIGKILL whatever is left and wait for it. */
export async function stopProcesses<T extends { pid: number; marker: string }>(
  procs: readonly T[],
  graceMs: number
): Promise<{ terminated: T[]; killed: T[] }> {
  signalAll(procs, 'SIGTERM');
  const left = await waitGone(procs, graceMs);
  signalAll(left, 'SIGKILL');
  const stuck = await waitGone(left, 5_000);
  if (stuck.length)
    throw new Error(`still running after SIGKILL: ${stuck.map((p) => p.pid).join(', ')}`);
  return { terminated: procs.filter((p) => !left.includes(p)), killed: left };
}

/** The last `bytes` of a log file, for error messages. */
export function logTail(file: string, bytes = 1500): string {
  try {
    return readFileSync(file, 'utf8').slice(-bytes);
  } catch {
    return '(no log)';
  }
}

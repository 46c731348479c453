// Last-resort cleanup for test helpers: synchronous hooks run when the test process exits, also
// when vitest stops its worker with SIGTERM (whose default action would skip 'exit' handlers).
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

const hooks = new Set<() => void>();
let installed = false;

/** Run `hook` at process exit; call the returned function once the hook is no longer needed. */
export function atExit(hook: () => void): () => void {
  if (!installed) {
    installed = true;
    process.once('exit', runHooks);
    // vitest ends a fork worker with SIGTERM; exiting turns it into an 'exit' that runs the hooks.
    process.once('SIGTERM', () => process.exit(143));
  }
  hooks.add(hook);
  return () => hooks.delete(hook);
}

function runHooks(): void {
  for (const hook of hooks) {
    try {
      hook();
    } catch {
      // Best effort: one failing hook must not keep the others from running.
    }
  }
  hooks.clear();
}

/** SIGKILL `child` at exit if it is still running then (a test that died before its afterAll). */
export function trackProcess(child: ChildProcess): void {
  const forget = atExit(() => child.kill('SIGKILL'));
  child.once('exit', forget);
}

const dirs = new Map<string, () => void>();

/** Remove `dir` at exit unless removeDir() ran first. */
export function trackDir(dir: string): void {
  dirs.set(
    dir,
    atExit(() => rmSync(dir, { recursive: true, force: true }))
  );
}

/** Remove `dir` now (and forget its exit hook). */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.get(dir)?.();
  dirs.delete(dir);
}

// Summarizes a V8 .cpuprofile (node --cpu-prof) by self time: per function, per file and per
// group (a node_modules package, a project directory, node's internals, GC, idle), as shares of
// busy time (idle excluded), so that two profiles of different length (the hub and the minimal
// prototype under the same load) compare side by side. Also inclusive time for functions whose
// name matches --inclusive (e.g. "sign|stringify"), to see what a call costs with its callees.
// `node --import tsx test/bench/cpuprofile-summary.ts <file.cpuprofile> [--top N] [--inclusive RE]
//   [--busiest SECONDS] [--tail FROM,TO (seconds before the end)]`
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * The samples of the `seconds`-long stretch with the most busy time: a benchmark's load window,
 * without start-up (module loading, connecting) or the idle rounds of the other servers.
 */
export function busiestWindow(profile: Profile, seconds: number): Profile {
  const idleIds = new Set(
    profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id)
  );
  const at: number[] = [];
  let t = 0;
  for (const d of profile.timeDeltas) at.push((t += d));
  const span = seconds * 1e6;
  let best = 0;
  let bestStart = 0;
  let busy = 0;
  let lo = 0;
  for (let hi = 0; hi < at.length; hi++) {
    if (!idleIds.has(profile.samples[hi]!)) busy += profile.timeDeltas[hi]!;
    while (at[hi]! - at[lo]! > span) {
      if (!idleIds.has(profile.samples[lo]!)) busy -= profile.timeDeltas[lo]!;
      lo++;
    }
    if (busy > best) {
      best = busy;
      bestStart = lo;
    }
  }
  let end = bestStart;
  while (end < at.length && at[end]! - at[bestStart]! <= span) end++;
  return {
    nodes: profile.nodes,
    samples: profile.samples.slice(bestStart, end),
    timeDeltas: profile.timeDeltas.slice(bestStart, end),
  };
}

/**
 * The samples from `from` to `to` seconds before the profile's end: e.g. the last phase of a
 * benchmark whose hub spent its first minute loading (discover.ts at 1,000,000 agents).
 */
export function tailWindow(profile: Profile, from: number, to: number): Profile {
  let total = 0;
  for (const d of profile.timeDeltas) total += d;
  let t = 0;
  let lo = -1;
  let hi = profile.timeDeltas.length;
  for (let i = 0; i < profile.timeDeltas.length; i++) {
    t += profile.timeDeltas[i]!;
    const before = (total - t) / 1e6;
    if (lo < 0 && before <= from) lo = i;
    if (before < to) {
      hi = i;
      break;
    }
  }
  lo = Math.max(0, lo);
  return {
    nodes: profile.nodes,
    samples: profile.samples.slice(lo, hi),
    timeDeltas: profile.timeDeltas.slice(lo, hi),
  };
}

const ROOT = resolve(import.meta.dirname, '../..');

/** The group a frame's self time is charged to: a package, a project directory, or V8/node. */
export function groupOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return '(gc)';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return '(program)';
    return `(native) ${functionName}`;
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 14).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const path = url.replace(/^file:\/\//, '');
  const rel = path.startsWith(ROOT) ? path.slice(ROOT.length + 1) : path;
  const parts = rel.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function fileOf(frame: CallFrame): string {
  if (!frame.url) return groupOf(frame);
  const path = frame.url.replace(/^file:\/\//, '');
  return path.startsWith(ROOT) ? path.slice(ROOT.length + 1) : path.replace(/.*node_modules\//, '');
}

export interface Summary {
  totalMs: number;
  busyMs: number;
  byFunction: Array<[string, number]>;
  byFile: Array<[string, number]>;
  byGroup: Array<[string, number]>;
  inclusive: Array<[string, number]>;
}

export function summarize(profile: Profile, inclusiveRe?: RegExp): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  const group = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const f = node.callFrame;
    total += us;
    if (f.functionName === '(idle)') {
      idle += us;
      continue;
    }
    add(fn, `${f.functionName || '(anonymous)'} ${fileOf(f)}:${f.lineNumber + 1}`, us);
    add(file, fileOf(f), us);
    add(group, groupOf(f), us);
    if (inclusiveRe) {
      // Each matching function once per stack, however deep its recursion.
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const cf = byId.get(at)!.callFrame;
        const key = `${cf.functionName} ${fileOf(cf)}:${cf.lineNumber + 1}`;
        if (inclusiveRe.test(cf.functionName) && !seen.has(key)) {
          seen.add(key);
          add(incl, key, us);
        }
      }
    }
  }
  const busy = total - idle;
  const sorted = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / busy] as [string, number]);
  return {
    totalMs: total / 1000,
    busyMs: busy / 1000,
    byFunction: sorted(fn),
    byFile: sorted(file),
    byGroup: sorted(group),
    inclusive: sorted(incl),
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) {
    process.stderr.write(
      'usage: cpuprofile-summary.ts <file.cpuprofile> [--top N] [--inclusive RE] [--busiest S] [--tail FROM,TO]\n'
    );
    process.exit(2);
  }
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const top = Number(opt('--top') ?? 30);
  const re = opt('--inclusive');
  const windowSeconds = opt('--busiest');
  let profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  if (windowSeconds !== undefined) profile = busiestWindow(profile, Number(windowSeconds));
  const tail = opt('--tail');
  if (tail !== undefined) {
    const [from, to] = tail.split(',').map(Number) as [number, number];
    profile = tailWindow(profile, from, to);
  }
  const s = summarize(profile, re ? new RegExp(re) : undefined);
  const pct = (v: number) => `${(v * 100).toFixed(1).padStart(5)}%`;
  const out: string[] = [`${file}: ${s.busyMs.toFixed(0)} ms busy of ${s.totalMs.toFixed(0)} ms`];
  const section = (title: string, rows: Array<[string, number]>) => {
    out.push('', title);
    for (const [k, v] of rows.slice(0, top)) out.push(`${pct(v)}  ${k}`);
  };
  section('by group (self)', s.byGroup);
  section('by file (self)', s.byFile);
  section('by function (self)', s.byFunction);
  if (re) section(`inclusive /${re}/`, s.inclusive);
  process.stdout.write(`${out.join('\n')}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();

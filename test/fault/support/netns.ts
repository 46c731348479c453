// Test hosts in network namespaces, all on this machine (issue 32 Must 1): one namespace per node,
// each with a veth pair to a bridge in the root namespace and an address of its own in a /24 of
// 10.x. The root namespace (the test process) has two addresses on the bridge: `service` (a /32;
// the PostgreSQL forwarder listens there) and `clients` (the /24's source address: every
// connection the test process opens to a node comes from it). That split lets a partition cut a
// hub from its clients while it still reaches PostgreSQL.
//
// A partition is a blackhole route on both sides (no iptables or nft here): in each namespace a
// route to the other's address; for the clients, a route in the hub's namespace to `clients` and a
// routing rule in the root namespace that blackholes traffic from `clients` to the hub. Healing
// deletes them. Names carry the run's pid (`bw<pid>-…`), so a run cleans up what a killed run
// left (its pid gone) and never touches another live run's namespaces.
import { execFileSync, spawnSync } from 'node:child_process';
import { atExit } from '../../support/cleanup.js';

const BASE = 'bw';
/** Routing rule priority of the clients' blackholes (below main's 32766, so they win). */
const RULE_PREF = 3232;

export interface NetNode {
  readonly name: string;
  /** The namespace (`ip netns exec <ns> …`). */
  readonly ns: string;
  readonly addr: string;
}

export interface NetLab {
  readonly prefix: string;
  /** Root namespace address the nodes reach services on (the PostgreSQL forwarder). */
  readonly service: string;
  /** Root namespace address the test's clients connect from. */
  readonly clients: string;
  readonly nodes: ReadonlyMap<string, NetNode>;
  node(name: string): NetNode;
  /** Cut `a` from `b` in both directions; `b` may be 'clients' (the test process). */
  partition(a: string, b: string): void;
  heal(a: string, b: string): void;
  /**
   * Does a TCP connection from `from` (a node, or 'clients') to `to`'s address and `port` open?
   * The test's proof that a cut is in place, and that a heal removed it.
   */
  connects(from: string, to: string, port: number): boolean;
  /** Every partition in place, as "a|b". */
  cuts(): string[];
  close(): void;
}

function ip(args: readonly string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function tryIp(args: readonly string[]): void {
  try {
    ip(args);
  } catch {
    // already gone
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Namespaces, bridges and rules of runs whose process is gone. */
export function removeStale(): string[] {
  const removed: string[] = [];
  const stale = (name: string) => {
    const m = new RegExp(`^${BASE}(\\d+)`).exec(name);
    return m !== null && Number(m[1]) !== process.pid && !alive(Number(m[1]));
  };
  for (const line of ip(['netns', 'list']).split('\n')) {
    const name = line.split(' ')[0] ?? '';
    if (name && stale(name)) {
      tryIp(['netns', 'del', name]);
      removed.push(name);
    }
  }
  for (const line of ip(['-o', 'link', 'show', 'type', 'bridge']).split('\n')) {
    const name = /^\d+: ([^:@]+)/.exec(line)?.[1];
    if (name && stale(name)) {
      tryIp(['link', 'del', name]);
      removed.push(name);
    }
  }
  // A rule names no bridge; one whose destination no bridge address covers any more is stale.
  const subnets = ip(['-o', '-4', 'addr', 'show'])
    .split('\n')
    .map((l) => /inet (10\.\d+\.\d+)\.\d+\/24/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined);
  for (const line of ip(['rule', 'show', 'pref', String(RULE_PREF)]).split('\n')) {
    const m = /from (\S+) to ((10\.\d+\.\d+)\.\d+)/.exec(line);
    if (m && !subnets.includes(m[3]!)) {
      tryIp(['rule', 'del', 'pref', String(RULE_PREF), 'from', m[1]!, 'to', m[2]!]);
      removed.push(`rule ${line.trim()}`);
    }
  }
  return removed;
}

/** Create a namespace per name, wired to a fresh bridge; torn down by close() or at exit. */
export function createNetLab(names: readonly string[]): NetLab {
  removeStale();
  const pid = process.pid;
  const prefix = `${BASE}${pid}`;
  // A /24 of its own per run: 10.(200 + a).(b).0 from the pid.
  const net = `10.${200 + ((pid >> 8) % 50)}.${pid % 256}`;
  const bridge = `${prefix}br`;
  const service = `${net}.1`;
  const clients = `${net}.2`;
  const nodes = new Map<string, NetNode>();
  const rules: string[][] = [];
  const routes = new Map<string, Array<[string, string]>>();
  let closed = false;

  const close = () => {
    if (closed) return;
    closed = true;
    for (const r of rules) tryIp(['rule', 'del', ...r]);
    for (const n of nodes.values()) tryIp(['netns', 'del', n.ns]);
    tryIp(['link', 'del', bridge]);
  };
  const forget = atExit(close);

  try {
    ip(['link', 'add', bridge, 'type', 'bridge']);
    ip(['addr', 'add', `${service}/32`, 'dev', bridge]);
    ip(['addr', 'add', `${clients}/24`, 'dev', bridge]);
    ip(['link', 'set', bridge, 'up']);
    names.forEach((name, i) => {
      const ns = `${prefix}-${name}`;
      const addr = `${net}.${10 + i}`;
      const veth = `${prefix}v${i}`;
      ip(['netns', 'add', ns]);
      nodes.set(name, { name, ns, addr });
      ip(['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
      ip(['link', 'set', veth, 'master', bridge, 'up']);
      ip(['-n', ns, 'addr', 'add', `${addr}/24`, 'dev', 'eth0']);
      ip(['-n', ns, 'link', 'set', 'eth0', 'up']);
      ip(['-n', ns, 'link', 'set', 'lo', 'up']);
    });
  } catch (err) {
    close();
    forget();
    throw err;
  }

  const node = (name: string): NetNode => {
    const n = nodes.get(name);
    if (!n) throw new RangeError(`no node ${name}`);
    return n;
  };
  const key = (a: string, b: string) => `${a}|${b}`;
  const blackholes = (a: string, b: string): Array<[string, string]> => {
    const na = node(a);
    if (b === 'clients') return [[na.ns, clients]];
    const nb = node(b);
    return [
      [na.ns, nb.addr],
      [nb.ns, na.addr],
    ];
  };
  const clientRule = (a: string) => [
    'pref',
    String(RULE_PREF),
    'from',
    clients,
    'to',
    node(a).addr,
    'blackhole',
  ];

  return {
    prefix,
    service,
    clients,
    nodes,
    node,
    partition(a, b) {
      if (routes.has(key(a, b))) throw new Error(`${a} and ${b} are already cut`);
      const made = blackholes(a, b);
      for (const [ns, to] of made) ip(['-n', ns, 'route', 'add', 'blackhole', `${to}/32`]);
      if (b === 'clients') {
        ip(['rule', 'add', ...clientRule(a)]);
        rules.push(clientRule(a));
      }
      routes.set(key(a, b), made);
    },
    heal(a, b) {
      const made = routes.get(key(a, b));
      if (!made) throw new Error(`${a} and ${b} are not cut`);
      for (const [ns, to] of made) ip(['-n', ns, 'route', 'del', 'blackhole', `${to}/32`]);
      if (b === 'clients') {
        ip(['rule', 'del', ...clientRule(a)]);
        rules.splice(
          rules.findIndex((r) => r.join(' ') === clientRule(a).join(' ')),
          1
        );
      }
      routes.delete(key(a, b));
    },
    connects(from, to, port) {
      // bash's /dev/tcp: a connect and nothing else; a blackhole fails it at once (EINVAL).
      const probe = ['bash', '-c', `exec 3<>/dev/tcp/${node(to).addr}/${port}`];
      const cmd = from === 'clients' ? probe : ['ip', 'netns', 'exec', node(from).ns, ...probe];
      return spawnSync(cmd[0]!, cmd.slice(1), { stdio: 'ignore', timeout: 5_000 }).status === 0;
    },
    cuts: () => [...routes.keys()],
    close() {
      close();
      forget();
    },
  };
}

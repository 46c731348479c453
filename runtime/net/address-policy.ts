// Which IP addresses the hub may connect to when it calls out (webfetch, HTTP agents, webhooks).
// Public unicast addresses are fine. Loopback, private, link-local (with the cloud metadata
// address), CGNAT and unique-local ones reach the hub's own machine or network: refused unless the
// operator allows private addresses. "This network", unspecified, multicast and reserved addresses
// are never a legitimate peer (and 0.0.0.0 reaches the local machine on Linux): always refused. IPv4 embedded in IPv6 (mapped ::ffff:a.b.c.d,
// compatible ::a.b.c.d, NAT64 64:ff9b::/96) is judged as the IPv4 address it carries.
import { isIPv4, isIPv6 } from 'node:net';

export const AddressKind = {
  public: 'public',
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  metadata: 'cloud metadata',
  sharedCgnat: 'shared (CGNAT)',
  uniqueLocal: 'unique local',
  thisNetwork: 'this-network',
  unspecified: 'unspecified',
  multicast: 'multicast',
  reserved: 'reserved',
  invalid: 'invalid',
} as const;
export type AddressKind = (typeof AddressKind)[keyof typeof AddressKind];

export interface AddressClass {
  kind: AddressKind;
  /** The range it falls in, for messages: "127.0.0.0/8". */
  range: string;
}

/** Allowed with OUTBOUND_ALLOW_PRIVATE (WEBFETCH_ALLOW_PRIVATE for webfetch); every other non-public kind is refused regardless. */
const PRIVATE_KINDS: ReadonlySet<AddressKind> = new Set<AddressKind>([
  AddressKind.loopback,
  AddressKind.private,
  AddressKind.linkLocal,
  AddressKind.metadata,
  AddressKind.sharedCgnat,
  AddressKind.uniqueLocal,
]);

interface V4Range {
  base: number;
  bits: number;
  kind: AddressKind;
  range: string;
}

function v4(cidr: string, kind: AddressKind): V4Range {
  const [addr = '', bits = '32'] = cidr.split('/');
  return { base: v4Number(addr)!, bits: Number(bits), kind, range: cidr };
}

// Most specific first: the metadata address sits inside link-local.
const V4_RANGES: readonly V4Range[] = [
  v4('169.254.169.254/32', AddressKind.metadata),
  v4('0.0.0.0/8', AddressKind.thisNetwork),
  v4('10.0.0.0/8', AddressKind.private),
  v4('100.64.0.0/10', AddressKind.sharedCgnat),
  v4('127.0.0.0/8', AddressKind.loopback),
  v4('169.254.0.0/16', AddressKind.linkLocal),
  v4('172.16.0.0/12', AddressKind.private),
  v4('192.168.0.0/16', AddressKind.private),
  v4('224.0.0.0/4', AddressKind.multicast),
  v4('240.0.0.0/4', AddressKind.reserved),
];

function v4Number(a: string): number | undefined {
  if (!isIPv4(a)) return undefined;
  return a.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function classifyV4(n: number): AddressClass {
  for (const r of V4_RANGES) {
    const size = 2 ** (32 - r.bits);
    if (n - (n % size) === r.base) return { kind: r.kind, range: r.range };
  }
  return { kind: AddressKind.public, range: '' };
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or undefined. */
export function v6Groups(a: string): number[] | undefined {
  const addr = a.replace(/%.*$/, '');
  if (!isIPv6(addr)) return undefined;
  let text = addr;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1]!);
    if (n === undefined) return undefined;
    tail.push(Math.floor(n / 65536), n % 65536);
    text = text.slice(0, -dotted[1]!.length) + '0:0';
  }
  const [head = '', rest] = text.split('::');
  const parse = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<number>(fill).fill(0), ...right];
  if (tail.length === 2) groups.splice(6, 2, tail[0]!, tail[1]!);
  return groups.length === 8 ? groups : undefined;
}

function classifyV6(g: number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = g6 * 65536 + g7;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return { kind: AddressKind.unspecified, range: '::/128' };
  if (zeroTo(7) && g7 === 1) return { kind: AddressKind.loopback, range: '::1/128' };
  if (zeroTo(5) && g5 === 0xffff) return within(classifyV4(embedded), '::ffff:0:0/96');
  if (zeroTo(6)) return within(classifyV4(embedded), '::/96');
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return within(classifyV4(embedded), '64:ff9b::/96');
  }
  if ((g0 & 0xfe00) === 0xfc00) return { kind: AddressKind.uniqueLocal, range: 'fc00::/7' };
  if ((g0 & 0xffc0) === 0xfe80) return { kind: AddressKind.linkLocal, range: 'fe80::/10' };
  // Site-local was withdrawn (RFC 3879) but still means "this site": treated as private.
  if ((g0 & 0xffc0) === 0xfec0) return { kind: AddressKind.private, range: 'fec0::/10' };
  if ((g0 & 0xff00) === 0xff00) return { kind: AddressKind.multicast, range: 'ff00::/8' };
  return { kind: AddressKind.public, range: '' };
}

/** An IPv4 class seen through an IPv6 form: the range names both. */
function within(c: AddressClass, v6Range: string): AddressClass {
  return c.kind === AddressKind.public ? c : { kind: c.kind, range: `${c.range} as ${v6Range}` };
}

export function classifyAddress(address: string): AddressClass {
  const n = v4Number(address);
  if (n !== undefined) return classifyV4(n);
  const g = v6Groups(address);
  if (g !== undefined) return classifyV6(g);
  return { kind: AddressKind.invalid, range: '' };
}

/** Why the hub must not connect to `address`, or undefined when it may. */
export function refusal(address: string, allowPrivate: boolean): AddressClass | undefined {
  const c = classifyAddress(address);
  if (c.kind === AddressKind.public) return undefined;
  if (allowPrivate && PRIVATE_KINDS.has(c.kind)) return undefined;
  return c;
}

/** Whether allowing private addresses would let this kind through (for the message's advice). */
export function allowableKind(kind: AddressKind): boolean {
  return PRIVATE_KINDS.has(kind);
}

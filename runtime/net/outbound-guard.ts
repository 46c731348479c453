// The outbound address guard shared by HTTP-agent delivery and webhooks: a host is resolved here,
// every address it has is judged by the address policy, and the connection is made to a checked
// address (the guard's `lookup` is what the socket uses, so a second DNS answer cannot swap in
// another one). Answers are cached per host for a few seconds: a delivery burst to one agent
// costs one resolution, and a literal IP costs none.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { HubError } from '../errors/index.js';
import { allowableKind, refusal, type AddressClass } from './address-policy.js';

export interface Resolved {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<Resolved[]>;

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** A refused destination: which host, which address, and why (the policy's class of it). */
export class OutboundRefusedError extends HubError {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly why: AddressClass
  ) {
    super('FORBIDDEN', refusalText(host, address, why));
  }
}

/** "127.0.0.1 is a loopback address (127.0.0.0/8); …" — the reason, with the operator's remedy. */
export function refusalText(host: string, address: string, why: AddressClass): string {
  const where = host === address ? `${host} is` : `${host} resolves to ${address},`;
  const range = why.range === '' ? '' : ` (${why.range})`;
  const advice = allowableKind(why.kind)
    ? 'the hub calls loopback, private and link-local addresses only when the operator sets ' +
      'OUTBOUND_ALLOW_PRIVATE=true'
    : 'such addresses are never called';
  return `${where} a ${why.kind} address${range}; ${advice}`;
}

export interface OutboundGuardOptions {
  /** OUTBOUND_ALLOW_PRIVATE: let loopback, private, link-local, CGNAT and ULA addresses through. */
  readonly allowPrivate: boolean;
  readonly resolver?: Resolver;
  /** How long one host's verdict is reused. */
  readonly cacheTtlMs?: number;
  readonly now?: () => number;
}

export interface OutboundGuard {
  readonly allowPrivate: boolean;
  /** The addresses `host` may be reached at; throws OutboundRefusedError (or a DNS error). */
  resolve(host: string): Promise<Resolved[]>;
  /** For http.request / net.connect: answers only addresses `resolve` accepted. */
  readonly lookup: LookupFunction;
  /**
   * The verdict on a URL's host when it is a literal IP (no DNS; sockets skip `lookup` for
   * literals, so callers must ask this first); undefined for a name or an allowed address.
   */
  literalRefusal(hostname: string): OutboundRefusedError | undefined;
}

type Verdict = { addresses: Resolved[] } | { refused: OutboundRefusedError };

const MAX_CACHED_HOSTS = 1_000;

export function createOutboundGuard(o: OutboundGuardOptions): OutboundGuard {
  const resolver = o.resolver ?? systemResolver;
  const ttl = o.cacheTtlMs ?? 5_000;
  const now = o.now ?? Date.now;
  const cache = new Map<string, { verdict: Verdict; expiresAt: number }>();

  const judge = (host: string, addresses: Resolved[]): Verdict => {
    for (const a of addresses) {
      const why = refusal(a.address, o.allowPrivate);
      if (why !== undefined) return { refused: new OutboundRefusedError(host, a.address, why) };
    }
    return { addresses };
  };

  const resolve = async (rawHost: string): Promise<Resolved[]> => {
    const host = bare(rawHost);
    const literal = isIP(host);
    let verdict: Verdict;
    if (literal !== 0) {
      verdict = judge(host, [{ address: host, family: literal === 6 ? 6 : 4 }]);
    } else {
      const hit = cache.get(host);
      if (hit !== undefined && hit.expiresAt > now()) {
        verdict = hit.verdict;
      } else {
        const addresses = await resolver(host);
        if (addresses.length === 0) throw new HubError('UNAVAILABLE', `${host} has no address`);
        verdict = judge(host, addresses);
        cache.delete(host);
        if (cache.size >= MAX_CACHED_HOSTS) cache.delete(cache.keys().next().value as string);
        cache.set(host, { verdict, expiresAt: now() + ttl });
      }
    }
    if ('refused' in verdict) throw verdict.refused;
    return verdict.addresses;
  };

  const lookup = ((
    host: string,
    options: { all?: boolean; family?: number },
    callback: (...args: unknown[]) => void
  ) => {
    resolve(host).then(
      (addresses) => {
        const wanted = addresses.filter((a) => !options.family || a.family === options.family);
        const list = wanted.length > 0 ? wanted : addresses;
        if (options.all === true) callback(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      },
      (err: unknown) => callback(err)
    );
  }) as LookupFunction;

  return {
    allowPrivate: o.allowPrivate,
    resolve,
    lookup,
    literalRefusal(hostname) {
      const host = bare(hostname);
      const literal = isIP(host);
      if (literal === 0) return undefined;
      const why = refusal(host, o.allowPrivate);
      return why === undefined ? undefined : new OutboundRefusedError(host, host, why);
    },
  };
}

/**
 * The registration-time check of a URL the hub will call later (an HTTP agent, a webhook): a
 * literal address, or `localhost` (RFC 6761: always loopback), that the guard would refuse. Names
 * are not resolved here — DNS can change after registration, so delivery checks again anyway.
 * Undefined when allowed, or when the text is not a URL (the field's own validation says so).
 */
export function registrationRefusal(
  guard: OutboundGuard,
  url: string
): OutboundRefusedError | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    const why = guard.literalRefusal('127.0.0.1');
    return why === undefined ? undefined : new OutboundRefusedError(host, '127.0.0.1', why.why);
  }
  return guard.literalRefusal(host);
}

/** URL hostnames put IPv6 literals in brackets. */
function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

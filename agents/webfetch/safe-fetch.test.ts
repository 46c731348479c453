// The parts of the fetcher that need no network: the address check of a hop (with a stand-in
// resolver), the pinned lookup, content types and charsets. The fetch itself is tested end to end.
import { describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import {
  checkedAddress,
  contentTypeOf,
  decode,
  pinnedLookup,
  type Resolved,
  type Resolver,
} from './safe-fetch.js';

const never = new AbortController().signal;

function resolverOf(answers: Record<string, Resolved[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const r = (host: string) => {
    asked.push(host);
    const a = answers[host];
    return a
      ? Promise.resolve(a)
      : Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }));
  };
  return Object.assign(r, { asked });
}

async function refusedWith(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(HubError);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('checkedAddress', () => {
  const dns = resolverOf({
    'public.example': [{ address: '93.184.215.14', family: 4 }],
    'internal.example': [{ address: '10.0.0.7', family: 4 }],
    // A name answering one public and one private address (a rebinding trick): refused.
    'mixed.example': [
      { address: '93.184.215.14', family: 4 },
      { address: '::ffff:169.254.169.254', family: 6 },
    ],
    'empty.example': [],
  });

  it('passes a public host and returns the address to connect to', async () => {
    const u = new URL('https://public.example/');
    expect(await checkedAddress(u, false, never, dns)).toEqual({
      address: '93.184.215.14',
      family: 4,
    });
  });

  it('refuses a host that resolves to a private address, saying how an operator allows it', async () => {
    const m = await refusedWith(
      checkedAddress(new URL('http://internal.example/'), false, never, dns)
    );
    expect(m).toBe(
      'refused: internal.example resolves to 10.0.0.7, a private address (10.0.0.0/8); webfetch ' +
        'does not reach into the hub’s own network; an operator who wants that sets ' +
        'WEBFETCH_ALLOW_PRIVATE=true'
    );
    expect(await checkedAddress(new URL('http://internal.example/'), true, never, dns)).toEqual({
      address: '10.0.0.7',
      family: 4,
    });
  });

  it('refuses when any of the addresses is refused', async () => {
    const m = await refusedWith(
      checkedAddress(new URL('http://mixed.example/'), false, never, dns)
    );
    expect(m).toMatch(/resolves to ::ffff:169\.254\.169\.254, a cloud metadata address/);
  });

  it('judges IP literals without resolving them', async () => {
    const before = dns.asked.length;
    const m = await refusedWith(checkedAddress(new URL('http://[::1]:8080/'), false, never, dns));
    expect(m).toMatch(/^refused: ::1 is a loopback address \(::1\/128\)/);
    const zero = await refusedWith(checkedAddress(new URL('http://0.0.0.0/'), true, never, dns));
    expect(zero).toMatch(/this-network address.*never fetched/);
    expect(await checkedAddress(new URL('http://8.8.8.8/'), false, never, dns)).toEqual({
      address: '8.8.8.8',
      family: 4,
    });
    expect(dns.asked.length).toBe(before);
  });

  it('says when a host does not resolve', async () => {
    expect(
      await refusedWith(checkedAddress(new URL('http://nx.example/'), false, never, dns))
    ).toMatch(/could not resolve the host nx\.example: ENOTFOUND/);
    expect(
      await refusedWith(checkedAddress(new URL('http://empty.example/'), false, never, dns))
    ).toMatch(/has no address/);
  });
});

describe('pinnedLookup', () => {
  it('answers the checked address whatever name is asked, in both callback forms', () => {
    const lookup = pinnedLookup({ address: '203.0.113.9', family: 4 }) as unknown as (
      host: string,
      o: { all?: boolean },
      cb: (...args: unknown[]) => void
    ) => void;
    const got: unknown[][] = [];
    lookup('rebound.example', {}, (...a) => got.push(a));
    lookup('rebound.example', { all: true }, (...a) => got.push(a));
    expect(got).toEqual([
      [null, '203.0.113.9', 4],
      [null, [{ address: '203.0.113.9', family: 4 }]],
    ]);
  });
});

describe('contentTypeOf and decode', () => {
  it('splits the media type and charset', () => {
    expect(contentTypeOf('Text/HTML; Charset="ISO-8859-1"')).toEqual({
      mime: 'text/html',
      charset: 'iso-8859-1',
    });
    expect(contentTypeOf(undefined)).toEqual({ mime: '', charset: undefined });
  });

  it('decodes in the header charset, else an HTML page’s meta charset, else UTF-8', () => {
    const latin = Buffer.from('<meta charset="windows-1252"><p>caf\xe9</p>', 'latin1');
    expect(decode(latin, undefined, 'text/html')).toContain('café');
    expect(decode(Buffer.from('caf\xe9', 'latin1'), 'iso-8859-1', 'text/plain')).toBe('café');
    expect(decode(Buffer.from('café'), undefined, 'text/plain')).toBe('café');
    expect(decode(Buffer.from('café'), 'no-such-charset', 'text/plain')).toBe('café');
  });
});

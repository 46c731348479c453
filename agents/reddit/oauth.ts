// Reddit OAuth for a server (data-sources.md "reddit"): the client-credentials grant,
// POST {REDDIT_URL}/api/v1/access_token with HTTP Basic client id and secret, gives a bearer token
// for oauth.reddit.com (about 100 queries a minute instead of 10). Tokens are kept per process
// until a minute before they expire; a refused secret fails the task naming the settings.
import { UnavailableError } from '../../runtime/errors/index.js';
import type { PublicDataSettings } from '../../runtime/config/index.js';
import { fail } from '../kit/index.js';

export const SOURCE = 'Reddit';

interface Token {
  value: string;
  expiresAt: number;
}

type RedditSettings = PublicDataSettings['reddit'];

const tokens = new Map<string, Token>();

/** Both settings, or neither: half a pair is an operator's mistake, said as such. */
export function credentials(s: RedditSettings): { id: string; secret: string } | undefined {
  if (s.clientId === undefined && s.clientSecret === undefined) return undefined;
  if (s.clientId === undefined || s.clientSecret === undefined) {
    fail(
      `not configured: set both REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET for OAuth, or neither ` +
        `for the keyless listings (only ${s.clientId === undefined ? 'REDDIT_CLIENT_SECRET' : 'REDDIT_CLIENT_ID'} is set)`
    );
  }
  return { id: s.clientId, secret: s.clientSecret };
}

export async function accessToken(
  s: RedditSettings,
  c: { id: string; secret: string },
  o: { timeoutMs: number; signal: AbortSignal; now: number }
): Promise<string> {
  const key = `${s.url}\n${c.id}\n${c.secret}`;
  const held = tokens.get(key);
  if (held !== undefined && held.expiresAt > o.now) return held.value;
  const url = new URL(s.url);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/api/v1/access_token`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${c.id}:${c.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': s.userAgent,
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.any([o.signal, AbortSignal.timeout(o.timeoutMs)]),
    });
  } catch (err) {
    if (o.signal.aborted) throw err;
    throw new UnavailableError(
      `${SOURCE}'s token endpoint could not be reached; try again later, or ask the operator to check REDDIT_URL`,
      err
    );
  }
  const body = (await res.json().catch(() => undefined)) as
    { access_token?: unknown; expires_in?: unknown; error?: unknown } | undefined;
  if (res.status === 401 || res.status === 403 || body?.error !== undefined) {
    fail(
      `${SOURCE} refused the hub's OAuth client (HTTP ${res.status}); ask the operator to check ` +
        'REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET'
    );
  }
  if (res.status >= 500 || typeof body?.access_token !== 'string') {
    throw new UnavailableError(
      `${SOURCE}'s token endpoint answered HTTP ${res.status} without a token; try again later`
    );
  }
  const life = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 3_600_000;
  tokens.set(key, { value: body.access_token, expiresAt: o.now + Math.max(0, life - 60_000) });
  return body.access_token;
}

// A push notification receiver on loopback for tests (a fixture server): records every POST
// (headers and parsed body), answers 200, or 503 while `refusing`; and checks a notification's JWS
// against the hub's JWKS as a real receiver would.
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { startFixtureServer } from './fixture-server.js';

export interface ReceivedPush {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  readonly body: Record<string, unknown>;
}

export interface PushReceiver {
  readonly url: string;
  /** Accepted notifications, in arrival order (refused attempts are counted, not kept). */
  readonly received: ReceivedPush[];
  refused: number;
  refusing: boolean;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const state = { received: [] as ReceivedPush[], refused: 0, refusing: false };
  const server = await startFixtureServer((req, res) => {
    if (state.refusing) {
      state.refused++;
      res.statusCode = 503;
      res.end();
      return;
    }
    state.received.push({
      path: req.path,
      headers: req.headers,
      raw: req.body,
      body: JSON.parse(req.body) as Record<string, unknown>,
    });
    res.statusCode = 200;
    res.end();
  });
  return {
    url: server.origin,
    get received() {
      return state.received;
    },
    get refused() {
      return state.refused;
    },
    set refused(n: number) {
      state.refused = n;
    },
    get refusing() {
      return state.refusing;
    },
    set refusing(v: boolean) {
      state.refusing = v;
    },
    close: () => server.close(),
  };
}

/**
 * What a receiver does with X-Hub-Signature-JWS: verify it against the hub's JWKS, for its own
 * URL, and compare the body's hash. Throws when any of it fails.
 */
export async function verifyPushSignature(
  push: ReceivedPush,
  jwks: { keys: unknown[] },
  audience: string
): Promise<Record<string, unknown>> {
  const jws = push.headers['x-hub-signature-jws'];
  if (typeof jws !== 'string') throw new Error('no X-Hub-Signature-JWS header');
  const { payload } = await jwtVerify(jws, createLocalJWKSet(jwks as JSONWebKeySet), {
    audience,
    algorithms: ['EdDSA'],
  });
  const hash = createHash('sha256').update(push.raw, 'utf8').digest('hex');
  if (payload.request_body_sha256 !== hash) throw new Error('body hash does not match');
  return payload;
}

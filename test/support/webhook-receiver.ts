// A local HTTP receiver of account webhooks for tests (a fixture server): verifies each signature
// with the secret it is given, records every request with its arrival time, and answers with
// whatever status `respond` says (to fail on purpose), or never while `hang` is set.
import { verifySignature } from '../../gateway/webhooks/index.js';
import { startFixtureServer } from './fixture-server.js';

export interface ReceivedWebhook {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly json: { event: string; timestamp: string; data: Record<string, unknown> };
  /** The signature checked against the receiver's secret. */
  readonly signatureValid: boolean;
  /** When the request arrived (Date.now()). */
  readonly at: number;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedWebhook[];
  secret: string;
  /** The status to answer the next requests with (default 200). */
  respond: number;
  /** While true, requests are recorded and never answered (a receiver that hangs). */
  hang: boolean;
  close(): Promise<void>;
}

export async function startWebhookReceiver(secret = ''): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const state = { secret, respond: 200, hang: false };
  const server = await startFixtureServer((req, res) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    received.push({
      headers,
      body: req.body,
      json: JSON.parse(req.body) as ReceivedWebhook['json'],
      signatureValid: verifySignature(state.secret, req.body, headers['x-hub-signature']),
      at: req.at,
    });
    if (state.hang) return;
    res.statusCode = state.respond;
    res.end('ok');
  });
  return {
    url: `${server.origin}/hook`,
    received,
    get secret() {
      return state.secret;
    },
    set secret(s: string) {
      state.secret = s;
    },
    get respond() {
      return state.respond;
    },
    set respond(n: number) {
      state.respond = n;
    },
    get hang() {
      return state.hang;
    },
    set hang(h: boolean) {
      state.hang = h;
    },
    // Requests left hanging are cut: they would keep close() waiting for ever.
    close: () => server.close(),
  };
}

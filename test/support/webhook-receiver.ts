// A local HTTP receiver of account webhooks for tests: verifies each signature with the secret it
// is given, records every request with its arrival time, and answers with whatever status
// `respond` says (to fail on purpose), or never while `hang` is set.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../gateway/webhooks/index.js';

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
  const server: Server = createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({
        headers,
        body,
        json: JSON.parse(body) as ReceivedWebhook['json'],
        signatureValid: verifySignature(state.secret, body, headers['x-hub-signature']),
        at,
      });
      if (state.hang) return;
      res.statusCode = state.respond;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
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
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        // Requests left hanging would keep close() waiting for ever.
        server.closeAllConnections();
      }),
  };
}

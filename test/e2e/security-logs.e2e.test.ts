// Secrets never reach the logs (issue 10, Must 5): a hub logging at trace level into memory is
// driven through everything that handles a secret — API keys issued and rotated, wrong keys on
// HTTP and WebSocket, an HTTP agent called with its webhook secret (answering and failing),
// webhooks signed with their secrets (delivered and failing), the admin token right and wrong —
// and then no API key, webhook secret, admin token, signing private key or database password
// may appear anywhere in what it logged.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { rpc, text } from '../support/rpc.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { connectWsAgent } from '../support/ws-agent.js';
import { REDACT_PATHS } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createTenant, issueAdminKey } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let agentServer: Server;
let agentFails = false;
const agentAuth: string[] = [];
let receiver: WebhookReceiver;
const lines: string[] = [];
/** Every secret the run handled, by what it is. */
const secrets: Array<[string, string]> = [];
const DB_PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
const ADMIN_TOKEN = `admin-${randomBytes(16).toString('hex')}`;

async function call(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  agentServer = createServer((req, res) => {
    agentAuth.push(req.headers.authorization ?? '');
    req.resume();
    if (agentFails) {
      res.writeHead(500).end('down');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'ok' }));
  });
  await new Promise<void>((r) => agentServer.listen(0, '127.0.0.1', r));
  receiver = await startWebhookReceiver();
  // The production logger's settings (runtime/log createLogger), into memory instead of stdout.
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== '')
      );
      done();
    },
  });
  const logger = pino(
    { level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    sink
  );
  // Trust authentication ignores the password; the hub still holds it in its DATABASE_URL.
  const dbUrl = db.url.replace('postgres://postgres@', `postgres://postgres:${DB_PASSWORD}@`);
  expect(dbUrl).toContain(DB_PASSWORD);
  hub = await startHub(
    testHubConfig(nats, db, {
      DATABASE_URL: dbUrl,
      PARTITIONS: '4',
      LOG_LEVEL: 'trace',
      ADMIN_TOKEN,
      DEBUG_ENABLED: 'true',
    }),
    logger
  );
  secrets.push(['database password', DB_PASSWORD], ['admin token', ADMIN_TOKEN]);
});

afterAll(async () => {
  await hub?.stop();
  agentServer?.close();
  await receiver?.close();
  await nats?.close();
  await db?.drop();
});

describe('secrets in the logs', () => {
  it('handles every kind of secret while logging at trace level', async () => {
    const tenant = await createTenant(hub.sql, { name: 'Secretive' });
    const admin = (await issueAdminKey(hub.sql, tenant.id)).key;
    secrets.push(['admin API key', admin]);

    // Keys issued and rotated through the management API.
    const port = (agentServer.address() as AddressInfo).port;
    const created = await call('POST', '/api/agents', admin, {
      name: 'http agent',
      url: `http://127.0.0.1:${port}/a2a`,
    });
    expect(created.status).toBe(201);
    const httpAgent = created.body as {
      agent: { agentId: string };
      apiKey: string;
      webhookSecret: string;
    };
    const sender = await call('POST', '/api/agents', admin, { name: 'sender' });
    const senderKey = (sender.body as { apiKey: string }).apiKey;
    const senderId = (sender.body as { agent: { agentId: string } }).agent.agentId;
    const rotated = await call('POST', `/api/agents/${senderId}/keys`, admin);
    expect(rotated.status).toBe(201);
    const newKey = (rotated.body as { apiKey: string }).apiKey;
    secrets.push(
      ['agent API key', httpAgent.apiKey],
      ['webhook secret of an HTTP agent', httpAgent.webhookSecret],
      ['rotated-away API key', senderKey],
      ['rotated API key', newKey]
    );

    // Wrong keys, on HTTP and on the WebSocket (header and legacy auth frame).
    const wrong = `bk_${randomBytes(32).toString('base64url')}`;
    secrets.push(['a guessed key', wrong]);
    expect((await rpc(hub.url, wrong, 'GetTask', { id: 'task-1' })).status).toBe(401);
    // The key rotated away is refused once the rotation's broadcast has reached the cache.
    await until(
      async () => (await rpc(hub.url, senderKey, 'GetTask', { id: 'task-1' })).status === 401,
      5_000
    );
    const ws = await connectWsAgent(hub.url, wrong, { legacyAuth: true, waitWelcome: false });
    await ws.next('auth_error');
    await ws.close();

    // The HTTP agent, called with its secret: answering, then failing.
    const ok = await rpc(hub.url, newKey, 'SendMessage', {
      message: text('hello'),
      configuration: { agentId: httpAgent.agent.agentId, blocking: true },
    });
    expect(ok.error).toBeUndefined();
    expect(ok.result).toMatchObject({ status: { state: 'completed' } });
    agentFails = true;
    await rpc(hub.url, newKey, 'SendMessage', {
      message: text('again'),
      configuration: { agentId: httpAgent.agent.agentId, blocking: true, ttlSeconds: 1 },
    });
    agentFails = false;
    expect(agentAuth).toContain(`Bearer ${httpAgent.webhookSecret}`);

    // Webhooks with their signing secrets: a given one and a generated one; delivered and failing.
    const given = `whsec_${randomBytes(24).toString('hex')}`;
    const hook1 = await call('POST', '/api/webhooks', admin, {
      url: receiver.url,
      events: ['credits.purchased'],
      secret: given,
    });
    const hook2 = await call('POST', '/api/webhooks', admin, {
      url: receiver.url,
      events: ['credits.purchased'],
    });
    const generated = hook2.body.secret as string;
    secrets.push(['given webhook signing secret', given], ['generated webhook secret', generated]);
    receiver.secret = given;
    await call('POST', `/api/webhooks/${(hook1.body.webhook as { id: string }).id}/test`, admin);
    receiver.respond = 500;
    await call('POST', '/api/credits/purchase', admin, { amount: 10 });
    await until(() => receiver.received.length >= 3, 20_000);
    receiver.respond = 200;

    // The admin token, right and wrong.
    const debugRight = await fetch(`${hub.url}/debug/machines`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(debugRight.status).toBe(200);
    const debugWrong = await fetch(`${hub.url}/debug/machines`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}x` },
    });
    expect(debugWrong.status).toBeGreaterThanOrEqual(400);

    // The hub's envelope signing keys.
    const keys = await hub.sql<Array<{ privateKeyPem: string }>>`
      select private_key_pem from hub_signing_keys`;
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) {
      const body = k.privateKeyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
      secrets.push(['signing private key', body]);
      // Each line of the PEM too: a logged PEM keeps its line breaks.
      for (const line of k.privateKeyPem.split('\n')) {
        if (line.length >= 32 && !line.startsWith('-----'))
          secrets.push(['signing key line', line]);
      }
    }
    // The last retries and their log lines: a failed attempt is logged as soon as its row is
    // updated, so once no delivery is pending, every failure and retry has been logged.
    await until(async () => {
      const [r] = await hub.sql<{ pending: number; total: number }[]>`
        select count(*) filter (where status = 'pending')::int as pending, count(*)::int as total
        from webhook_deliveries`;
      return r !== undefined && r.total > 0 && r.pending === 0;
    }, 30_000);
  }, 120_000);

  it('logged none of them', () => {
    const all = lines.join('\n');
    const levels: Record<string, number> = {};
    for (const l of lines) {
      const level = String((JSON.parse(l) as { level: number }).level);
      levels[level] = (levels[level] ?? 0) + 1;
    }
    console.log(
      `captured ${lines.length} log lines (${all.length} bytes) by level ${JSON.stringify(levels)}; ` +
        `checked ${secrets.length} secrets`
    );
    // The capture worked and saw the failures: otherwise "nothing leaked" would mean nothing.
    // (The hub keeps its hot paths quiet even at trace: few lines, but the failures among them.)
    expect(lines.length).toBeGreaterThan(10);
    expect(all).toMatch(/webhook delivery failed/);
    const leaked = secrets.filter(([, s]) => all.includes(s)).map(([what]) => what);
    expect(leaked).toEqual([]);
  });
});

// An optional part never takes the hub down (issue 25): postie's inbound SMTP listener meets a
// port another process holds; the hub starts anyway, says which setting to change, /health
// answers 200 "degraded" naming the part, and messaging works.
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';
import { rpc, text } from '../support/rpc.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let squatter: net.Server;
let port: number;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  squatter = net.createServer();
  await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', r));
  port = (squatter.address() as net.AddressInfo).port;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n'))
        if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  const log = pino({ level: 'warn' }, sink);
  hub = await startHub(
    testHubConfig(nats, db, { SMTP_LISTEN_PORT: String(port), SMTP_LISTEN_HOST: '127.0.0.1' }),
    log
  );
  await until(() => hub.partitions.ownedPartitions().length === 8, 30_000);
}, 60_000);

afterAll(async () => {
  await hub?.stop();
  await new Promise((r) => squatter?.close(r));
  await nats?.close();
  await db?.drop();
});

describe('postie cannot bind its SMTP port', () => {
  it('starts anyway and one warning names the setting and the part', () => {
    expect(hub.smtpPort).toBeUndefined();
    const warned = lines.filter((l) => String(l.msg).includes('SMTP_LISTEN_PORT'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 40, setting: 'SMTP_LISTEN_PORT', port });
    expect(String(warned[0]!.msg)).toMatch(/postie's inbound SMTP listener could not bind/);
    expect(String(warned[0]!.msg)).toContain('EADDRINUSE');
  });

  it('answers /health 200 "degraded" with the part down and the dependencies up', async () => {
    const r = await fetch(`${hub.url}/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      status: 'degraded',
      checks: { nats: 'ok', postgres: 'ok', smtpInbound: 'down' },
    });
  });

  it('still runs the rest: the official echo agent answers through /a2a', async () => {
    const tenant = await createTenant(hub.sql, { name: 'Acme' });
    const { apiKey } = await createAgent(hub.sql, { tenantId: tenant.id, name: 'Caller' });
    const r = await rpc<{ status: { state: string } }>(hub.url, apiKey, 'SendMessage', {
      message: text('still here?'),
      configuration: { agentId: 'agent-echo-official', blocking: true },
    });
    expect(r.result?.status.state).toBe('completed');
  });
});

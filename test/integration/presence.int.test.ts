// Presence on a real nats-server that goes away: a put that fails while the server is down is
// retried until it is stored (a partition once left agents with open sockets offline for every
// other node for good), and a retry stops once its socket is replaced.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { silentLogger } from '../../runtime/log/index.js';
import {
  buckets,
  connectBus,
  decodeJson,
  presenceKey,
  provision,
  type Bus,
} from '../../runtime/bus/index.js';
import { Presence, type PresenceEntry } from '../../actors/index.js';

let nats: NatsServerHandle;
let bus: Bus;
let presence: Presence;

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({
    servers: [nats.url],
    name: 'presence-test',
    replicas: 1,
    log: silentLogger,
  });
  await provision(bus, { partitions: 2, replicas: 1, nodeTtlMs: 5_000 });
  presence = new Presence({ bus, nodeId: 'n1', log: silentLogger, liveNodes: () => ['n1'] });
  await presence.start();
});

afterAll(async () => {
  presence?.stop();
  await bus?.close();
  await nats?.close();
});

/** The stored entry, read from the bucket (not from the node's memory). */
async function stored(agentId: string): Promise<PresenceEntry | null> {
  const kv = await bus.kvm.open(buckets.presence);
  const e = await kv.get(presenceKey(agentId));
  return e && e.operation === 'PUT' ? decodeJson<PresenceEntry>(e.value) : null;
}

describe('presence while NATS is away', () => {
  it('stores a connection whose first put failed once the server is back', async () => {
    await nats.stop();
    await expect(presence.connected('agent-x', 'conn-1')).rejects.toThrow();
    expect(presence.isOnline('agent-x')).toBe(true);
    await nats.restart();
    await vi.waitFor(
      async () => expect(await stored('agent-x')).toMatchObject({ connId: 'conn-1' }),
      {
        timeout: 30_000,
        interval: 200,
      }
    );
  }, 60_000);

  it('keeps retrying only the newest connection of an agent', async () => {
    await nats.stop();
    await expect(presence.connected('agent-y', 'conn-old')).rejects.toThrow();
    await expect(presence.connected('agent-y', 'conn-new')).rejects.toThrow();
    await nats.restart();
    await vi.waitFor(
      async () => expect(await stored('agent-y')).toMatchObject({ connId: 'conn-new' }),
      { timeout: 30_000, interval: 200 }
    );
    // The older socket's retry chain ended when it was replaced: a later put of it would win here.
    await presence.connected('agent-fence', 'conn-f');
    expect(await stored('agent-y')).toMatchObject({ connId: 'conn-new' });
  }, 60_000);
});

// The NATS launchers in test/support: a restarted server keeps its port and its JetStream data,
// a cluster survives losing a node, and close() leaves no process and no directory behind.
import { existsSync } from 'node:fs';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startNatsCluster, type NatsClusterHandle } from '../support/nats-cluster.js';
import { accepts } from '../support/nats-process.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';

const connections: NatsConnection[] = [];
async function client(servers: string | string[]): Promise<NatsConnection> {
  const nc = await connect({ servers, name: 'nats-support-test' });
  connections.push(nc);
  return nc;
}
afterEach(async () => {
  await Promise.all(connections.splice(0).map((nc) => nc.close()));
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function messages(nc: NatsConnection, stream: string): Promise<number> {
  const jsm = await jetstreamManager(nc);
  return (await jsm.streams.info(stream)).state.messages;
}

describe('startNatsServer', () => {
  let server: NatsServerHandle | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it('starts a private JetStream server that is not the shared one on 4222', async () => {
    server = await startNatsServer();
    expect(server.port).not.toBe(4222);
    expect(server.url).toBe(`nats://127.0.0.1:${server.port}`);
    expect(alive(server.pid)).toBe(true);
    expect(existsSync(server.logFile)).toBe(true);
    const jsz = (await (await fetch(`${server.monitorUrl}/jsz`)).json()) as {
      config: { store_dir: string };
    };
    expect(jsz.config.store_dir.startsWith(server.storeDir)).toBe(true);
  });

  it('keeps the port and the JetStream data across stop() and restart()', async () => {
    if (!server) throw new Error('no server');
    let nc = await client(server.url);
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'KEEP', subjects: ['keep.>'] });
    const js = jetstream(nc);
    for (let i = 0; i < 3; i++) await js.publish('keep.a', `m${i}`);
    await nc.close();

    const oldPid = server.pid;
    await server.stop();
    expect(alive(oldPid)).toBe(false);
    expect(server.pid).toBe(-1);
    expect(await accepts(server.port)).toBe(false);

    await server.restart();
    expect(server.pid).not.toBe(oldPid);
    nc = await client(server.url);
    expect(await messages(nc, 'KEEP')).toBe(3);
  });

  it('keeps the data after a crash (kill) too', async () => {
    if (!server) throw new Error('no server');
    const nc = await client(server.url);
    await jetstream(nc).publish('keep.b', 'after restart');
    await nc.close();
    const oldPid = server.pid;
    await server.kill();
    expect(alive(oldPid)).toBe(false);
    await server.restart();
    expect(await messages(await client(server.url), 'KEEP')).toBe(4);
  });

  it('close() stops the process and removes its directory', async () => {
    if (!server) throw new Error('no server');
    const { pid, dir } = server;
    await server.close();
    server = undefined;
    expect(alive(pid)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('startNatsCluster', () => {
  let cluster: NatsClusterHandle | undefined;
  afterAll(async () => {
    await cluster?.close();
  });

  it('starts three nodes that agree on a JetStream meta leader', async () => {
    const c = (cluster = await startNatsCluster());
    expect(new Set(c.urls).size).toBe(3);
    expect(c.urls).not.toContain('nats://127.0.0.1:4222');
    const leaders = await Promise.all([0, 1, 2].map((i) => c.metaLeader(i)));
    expect(new Set(leaders).size).toBe(1);
    expect(c.nodes.map((n) => n.name)).toContain(leaders[0]);
  });

  it('keeps a replicated stream through a node crash and the node rejoining', async () => {
    if (!cluster) throw new Error('no cluster');
    const nc = await client(cluster.urls);
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'R3', subjects: ['r3.>'], num_replicas: 3 });
    const js = jetstream(nc, { timeout: 2000 });
    for (let i = 0; i < 5; i++) await js.publish('r3.x', `m${i}`, { msgID: `m${i}` });

    // A follower of the meta group: the remaining two keep quorum.
    const leader = await cluster.metaLeader(0);
    const victim = cluster.nodes.find((n) => n.name !== leader);
    if (!victim) throw new Error('no follower');
    const pid = victim.pid;
    await victim.kill();
    expect(alive(pid)).toBe(false);
    expect(victim.pid).toBe(-1);

    // If the victim led the stream, writes pause for an election; retry with the same msgID.
    for (let i = 5; i < 10; i++) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        try {
          await js.publish('r3.x', `m${i}`, { msgID: `m${i}` });
          break;
        } catch (err) {
          if (Date.now() > deadline) throw err;
        }
      }
    }

    await victim.restart();
    expect(alive(victim.pid)).toBe(true);
    // The rejoined node catches up: the stream leader reports its replica current, all 10 stored.
    const deadline = Date.now() + 20_000;
    let seen = '';
    for (;;) {
      const info = await jsm.streams.info('R3').catch(() => undefined);
      const replica = info?.cluster?.replicas?.find((r) => r.name === victim.name);
      seen = JSON.stringify({ messages: info?.state.messages, cluster: info?.cluster });
      if (info?.state.messages === 10 && replica?.current === true) break;
      if (Date.now() > deadline) throw new Error(`replica did not catch up: ${seen}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  it('close() stops every node and removes the directory', async () => {
    if (!cluster) throw new Error('no cluster');
    const pids = cluster.nodes.map((n) => n.pid);
    await cluster.close();
    cluster = undefined;
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });
});

// Test support: a real uWS gateway on port 0 with in-process deps (real metrics, a health answer
// the test sets, a debug source over a real xstate machine). No NATS, no Postgres.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createActor, createMachine, type AnyActorRef } from 'xstate';
import { MachineRegistry } from '../runtime/inspect/index.js';
import type { Logger } from '../runtime/log/index.js';
import { createMetrics, type HubMetrics } from '../runtime/metrics/index.js';
import type { DebugSource, Gateway, GatewayDeps, HealthReport, RpcHandler } from './deps.js';
import type { RouteRegistrar } from './routes/index.js';
import { createGateway } from './server.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

/** A two-state machine standing in for the hub's own (actors/ is not the gateway's to import). */
export const doorMachine = createMachine({
  id: 'door',
  initial: 'closed',
  states: {
    closed: { description: 'Nobody gets in', on: { 'door.open': 'open' } },
    open: { description: 'Anyone gets in', on: { 'door.close': 'closed' } },
  },
});

/** A logger whose lines the test can read (parsed JSON). */
export function capturingLogger(level = 'warn'): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level }, sink), lines };
}

export interface TestGatewayOptions {
  config?: Partial<GatewayDeps['config']>;
  rpc?: ReadonlyMap<string, RpcHandler>;
  routes?: readonly RouteRegistrar[];
  log?: Logger;
}

export interface TestGateway {
  readonly base: string;
  readonly gateway: Gateway;
  readonly metrics: HubMetrics;
  /** What deps.health() answers; tests change it. */
  health: HealthReport | Error;
  readonly actors: Map<string, AnyActorRef>;
  close(): void;
}

export async function startTestGateway(opts: TestGatewayOptions = {}): Promise<TestGateway> {
  const metrics = createMetrics({ defaultMetrics: false });
  const registry = new MachineRegistry();
  registry.register(doorMachine);
  const actors = new Map<string, AnyActorRef>();
  const door = createActor(doorMachine, { systemId: 'door:front' }).start();
  door.send({ type: 'door.open' });
  actors.set('door:front', door);

  const debug: DebugSource = {
    machineIds: () => registry.ids(),
    machineDefinition: (id) => registry.definition(id),
    machineGraph: (id, format) => registry.graph(id, format),
    actorSnapshot: (systemId) => Promise.resolve(actors.get(systemId)?.getPersistedSnapshot()),
    cluster: () =>
      Promise.resolve({
        nodeId: 'node-test',
        members: ['node-test'],
        partitions: { 0: 'node-test' },
      }),
  };

  const harness: { health: HealthReport | Error } = { health: { nats: 'ok', postgres: 'ok' } };
  const deps: GatewayDeps = {
    config: {
      port: 0,
      host: '127.0.0.1',
      bodyLimitBytes: 1024 * 1024,
      adminToken: TEST_ADMIN_TOKEN,
      metricsToken: TEST_ADMIN_TOKEN,
      debugEnabled: true,
      publicUrl: 'http://127.0.0.1',
      nodeId: 'node-test',
      ...opts.config,
    },
    log: opts.log ?? pino({ level: 'silent' }),
    metrics,
    health: () =>
      harness.health instanceof Error
        ? Promise.reject(harness.health)
        : Promise.resolve(harness.health),
    rpc: opts.rpc ?? new Map(),
    debug,
  };
  const gateway = createGateway(deps, { routes: opts.routes ?? [] });
  const port = await gateway.listen();
  return {
    base: `http://127.0.0.1:${port}`,
    gateway,
    metrics,
    get health() {
      return harness.health;
    },
    set health(value) {
      harness.health = value;
    },
    actors,
    close() {
      gateway.close();
      for (const actor of actors.values()) actor.stop();
    },
  };
}

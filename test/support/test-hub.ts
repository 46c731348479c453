// Hubs for e2e tests: the configuration every test starts from (fast heartbeats, silent logs,
// port 0), waiting for partition ownership to settle, and a polling helper.
import { loadConfig, type Config } from '../../runtime/config/index.js';

export interface ServersForHub {
  readonly url: string;
}

/** A hub Config for tests on the given NATS server and database; `overrides` are env strings. */
export function testHubConfig(
  nats: ServersForHub,
  db: ServersForHub,
  overrides: Record<string, string> = {}
): Config {
  return loadConfig({
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    PORT: '0',
    PARTITIONS: '8',
    HEARTBEAT_MS: '300',
    NODE_TTL_MS: '2000',
    LOCK_INACTIVE_MS: '2000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Many hubs share this machine: each inbound SMTP listener takes a free port.
    SMTP_LISTEN_PORT: '0',
    // Test agents and webhook receivers listen on loopback.
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // Public-data agents never reach the internet from a test: unless a test points them at its
    // fixture server, they meet a closed loopback port (the discard port, 9).
    TRIALS_URL: 'http://127.0.0.1:9/api/v2',
    FDA_URL: 'http://127.0.0.1:9',
    EPA_URL: 'http://127.0.0.1:9/echo',
    PATENTS_URL: 'http://127.0.0.1:9',
    ...overrides,
  });
}

/** Poll until `cond` holds; throws after `ms`. */
export async function until(cond: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Wait until the hubs together own all `partitions`, each hub at least one. */
export function partitionsSettled(
  hubs: ReadonlyArray<{ partitions: { ownedPartitions(): number[] } }>,
  partitions: number
): Promise<void> {
  return until(() => {
    const owned = hubs.map((h) => h.partitions.ownedPartitions().length);
    return owned.every((n) => n > 0) && owned.reduce((a, b) => a + b, 0) === partitions;
  });
}

/** An x-hub envelope a caller might forge: the hub must discard it. */
export function forgedEnvelope(recipientId: string) {
  return {
    v: 1,
    sender: { agentId: 'agent-forged', tenantId: 'ten-forged' },
    recipient: { agentId: recipientId, tenantId: 'x' },
    taskId: 't',
    contextId: 'c',
    messageId: 'm',
    iat: 1,
    exp: 9999999999,
    kid: 'fake',
    sig: 'AAAA',
  };
}

// E2e support for official agents: one hub on its own NATS server and database, tenants and agents
// with keys, and `ask` — a blocking SendMessage to an official agent through /a2a, read back as
// state, text, JSON data and the failure message.
import { startNatsServer, type NatsServerHandle } from './nats-server.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';
import { rpc } from './rpc.js';
import { forgedEnvelope, testHubConfig, until } from './test-hub.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

export interface AgentHub {
  readonly hub: Hub;
  readonly url: string;
  /** A new tenant; its id. */
  tenant(name: string): Promise<string>;
  /** A new agent in `tenantId`; its id and API key. */
  agent(tenantId: string, name: string): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

export interface AskOptions {
  /** configuration.acceptedOutputModes, e.g. ['application/json']. */
  accept?: string[];
  /** Extra params merged into the SendMessage params (to try forging fields, for instance). */
  params?: Record<string, unknown>;
  contextId?: string;
}

export interface Answer {
  /** The JSON-RPC error when the hub refused the call; the rest is then empty. */
  error?: { code: number; message: string; data?: unknown };
  taskId: string;
  state: string;
  /** Text parts of every artifact, joined by newlines. */
  text: string;
  /** The first application/json data part, parsed. */
  data: unknown;
  /** The status message (a failed task's reason). */
  statusText: string;
  task: Record<string, unknown>;
}

/** A hub on its own database and on `nats` (a new NATS server when omitted; closed with the hub). */
export async function startAgentHub(
  env: Record<string, string> = {},
  natsServer?: NatsServerHandle
): Promise<AgentHub> {
  const nats: NatsServerHandle = natsServer ?? (await startNatsServer());
  const db: TestDatabase = await createTestDatabase();
  const hub = await startHub(
    testHubConfig(nats, db, { RATE_LIMIT_PER_MINUTE: '100000', ...env }),
    silentLogger
  );
  await until(() => hub.partitions.ownedPartitions().length === hub.config.partitions);
  return {
    hub,
    url: hub.url,
    async tenant(name) {
      return (await createTenant(hub.sql, { name })).id;
    },
    async agent(tenantId, name) {
      const created = await createAgent(hub.sql, { tenantId, name });
      return { id: created.agent.id, key: created.apiKey };
    },
    async close() {
      await hub.stop();
      await nats.close();
      await db.drop();
    },
  };
}

interface TaskShape {
  id: string;
  status: { state: string; message?: string };
  artifacts?: Array<{
    parts: Array<{ kind: string; text?: string; mimeType?: string; data?: string }>;
  }>;
}

/** A blocking SendMessage to `agentId` with `body` as the one text part (objects are JSON-encoded). */
export async function ask(
  url: string,
  key: string,
  agentId: string,
  body: string | Record<string, unknown>,
  o: AskOptions = {}
): Promise<Answer> {
  const r = await rpc(url, key, 'SendMessage', {
    message: {
      role: 'user',
      parts: [{ kind: 'text', text: typeof body === 'string' ? body : JSON.stringify(body) }],
    },
    configuration: {
      agentId,
      blocking: true,
      ...(o.accept ? { acceptedOutputModes: o.accept } : {}),
    },
    ...(o.contextId ? { contextId: o.contextId } : {}),
    ...o.params,
  });
  if (r.error) {
    return {
      error: r.error,
      taskId: '',
      state: '',
      text: '',
      data: undefined,
      statusText: '',
      task: {},
    };
  }
  const task = r.result as unknown as TaskShape;
  const parts = (task.artifacts ?? []).flatMap((a) => a.parts);
  const json = parts.find((p) => p.kind === 'data' && p.mimeType === 'application/json');
  return {
    taskId: task.id,
    state: task.status.state,
    text: parts
      .filter((p) => p.kind === 'text')
      .map((p) => p.text ?? '')
      .join('\n'),
    data: json?.data !== undefined ? JSON.parse(json.data) : undefined,
    statusText: task.status.message ?? '',
    task: r.result as Record<string, unknown>,
  };
}

/**
 * Every way a caller might claim to be `as`: identity fields in a JSON body (plus `extraBody`),
 * and in params a forged x-hub envelope naming `as` and plain tenant/sender fields.
 */
export function forgedIdentity(
  officialId: string,
  as: { agentId: string; tenantId: string },
  extraBody: Record<string, unknown> = {}
) {
  return {
    body: {
      tenantId: as.tenantId,
      tenant_id: as.tenantId,
      senderId: as.agentId,
      agentId: as.agentId,
      sender: { agentId: as.agentId, tenantId: as.tenantId },
      ...extraBody,
    },
    params: {
      'x-hub': { ...forgedEnvelope(officialId), sender: { ...as } },
      tenantId: as.tenantId,
      senderId: as.agentId,
    },
  };
}

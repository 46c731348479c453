// Every NATS subject, stream, consumer and bucket name the hub uses is built here and nowhere else.
// Durable data lives under `hubd.` (captured by streams); core request/reply under `hub.` (never
// captured by a stream, so a request is never stored by accident).

/** A NATS subject token: no dots, wildcards or whitespace. */
export const TOKEN = /^[A-Za-z0-9_-]+$/;

export function assertToken(value: string, what: string): string {
  if (!TOKEN.test(value))
    throw new Error(`${what} is not a NATS subject token: ${JSON.stringify(value)}`);
  return value;
}

/** Partition numbers print with a fixed width so names sort: 7 → "07" (or "007" above 100). */
export function partitionLabel(p: number, partitions: number): string {
  return String(p).padStart(Math.max(2, String(partitions - 1).length), '0');
}

export const streams = {
  partition: (label: string) => `HUB_P${label}`,
  locks: 'HUB_LOCKS',
  /** Account events (interface-spec "Events") for webhook delivery. */
  events: 'HUB_EVENTS',
  /** Final snapshots of finished actors, moved out of the partition logs by compaction. */
  archive: 'HUB_ARCHIVE',
} as const;

export const buckets = {
  nodes: 'HUB_NODES',
  /** agent.<agentId> → the node and connection holding the agent's WebSocket. */
  presence: 'HUB_PRESENCE',
} as const;

export const subjects = {
  /** Everything a partition's log stream captures. */
  partitionAll: (label: string) => `hubd.${label}.>`,
  /** The fencing marker each new owner writes. */
  partitionEpoch: (label: string) => `hubd.${label}._epoch`,
  /** Written by the owner right before it purges its log up to a sequence (fenced like every write). */
  partitionCompact: (label: string) => `hubd.${label}._compact`,
  /** One actor's snapshot (appended on every change; the newest is the actor's state). */
  actorSnapshot: (label: string, kind: string, id: string) =>
    `hubd.${label}.s.${assertToken(kind, 'actor kind')}.${assertToken(id, 'actor id')}`,
  actorSnapshotsAll: (label: string) => `hubd.${label}.s.>`,
  /** A finished actor's final snapshot in HUB_ARCHIVE (one per subject), any partition. */
  archivedActor: (kind: string, id: string) =>
    `huba.${assertToken(kind, 'actor kind')}.${assertToken(id, 'actor id')}`,
  archiveAll: 'huba.>',
  /** One queued message (many per subject; FIFO by stream sequence), in the recipient tenant's partition. */
  queuedMessage: (label: string, tenantId: string, recipientId: string, senderId: string) =>
    `hubd.${label}.q.${assertToken(tenantId, 'tenant id')}.${assertToken(recipientId, 'agent id')}.${assertToken(senderId, 'agent id')}`,
  queuedAll: (label: string) => `hubd.${label}.q.>`,
  /**
   * A queue's done record: the positions of queued messages removed since the previous one. Under
   * queuedAll (one replay reads both) but of another shape than a message (4 tokens, not 6).
   */
  queueDone: (label: string) => `hubd.${label}.q._done`,
  /** Every queued message of one recipient (any sender). */
  queuedForRecipient: (label: string, tenantId: string, recipientId: string) =>
    `hubd.${label}.q.${assertToken(tenantId, 'tenant id')}.${assertToken(recipientId, 'agent id')}.*`,
  /** Broadcast by a queue's owner when a recipient's backlog appears or empties. */
  queueBacklog: 'hub.queue.backlog',
  /** Broadcast by a node that activated a queue partition (task owners check their queued tasks). */
  queueActivated: 'hub.queue.activated',

  locksAll: 'hub.lock.>',
  partitionLock: (label: string) => `hub.lock.p${label}`,

  /** Requests to whichever node owns a partition (only the owner subscribes). */
  partitionRequest: (label: string, op: string) => `hub.p.${label}.${assertToken(op, 'op')}`,
  partitionRequestAll: (label: string) => `hub.p.${label}.*`,
  /** Debug look-up of a live actor: every node listens, only the holder answers. */
  actorLookup: 'hub.debug.actor',
  /** Frames for a WebSocket held by one node (only that node subscribes). */
  connDeliver: (nodeId: string) => `hub.conn.${assertToken(nodeId, 'node id')}.deliver`,
  /** Work for an official agent's pool (queue group = the agent id). */
  agentInvoke: (agentId: string) => `hub.agent.${assertToken(agentId, 'agent id')}.invoke`,
  /** A sender canceled a task an official agent may be working on (every pool member listens). */
  agentCancel: (agentId: string) => `hub.agent.${assertToken(agentId, 'agent id')}.cancel`,
  /** Broadcast when an agent's record changes (settings, card, keys): nodes drop cached copies. */
  agentChanged: (agentId: string) => `hub.directory.agent.${assertToken(agentId, 'agent id')}`,
  agentChangedAll: 'hub.directory.agent.*',
  /** Broadcast when an API key is revoked or rotated (its hash): nodes drop the cached principal. */
  keyRevoked: 'hub.directory.key.revoked',
  /** A tenant's webhooks changed: nodes drop their copy of what it subscribes to. */
  webhooksChanged: (tenantId: string) =>
    `hub.webhooks.changed.${assertToken(tenantId, 'tenant id')}`,
  webhooksChangedAll: 'hub.webhooks.changed.*',
  /** A tenant's spending budgets changed: nodes drop what they cached (`*`: subscribe to all). */
  spendingChanged: (tenantId: string) =>
    `hub.spending.changed.${tenantId === '*' ? '*' : assertToken(tenantId, 'tenant id')}`,

  /** A tenant's account event (`message.sent` → token `message_sent`), stored in HUB_EVENTS. */
  hubEvent: (tenantId: string, event: string) =>
    `hubev.${assertToken(tenantId, 'tenant id')}.${assertToken(event.replaceAll('.', '_'), 'event name')}`,
  hubEventsOfTenant: (tenantId: string) => `hubev.${assertToken(tenantId, 'tenant id')}.*`,
  hubEventsAll: 'hubev.>',
} as const;

export const consumers = {
  /** The lock consumer's name includes the holder so a second node's create collides on the filter. */
  partitionLock: (label: string, nodeId: string) => `p${label}-${assertToken(nodeId, 'node id')}`,
} as const;

export const nodeKey = (nodeId: string) => `node.${assertToken(nodeId, 'node id')}`;
export const presenceKey = (agentId: string) => `agent.${assertToken(agentId, 'agent id')}`;

// Account events (interface-spec "Events", decisions.md §9): stored durably in HUB_EVENTS as
// `{event, timestamp, data}` on hubev.<tenantId>.<event_name>, for the webhook dispatcher to send.
// Nats-Msg-Id = the event id, so a publish retried after a timeout or failover is stored once.
import { randomUUID } from 'node:crypto';
import type { PubAck } from '@nats-io/jetstream';
import { HubError } from '../errors/index.js';
import { decodeJson, encodeJson } from './codec.js';
import type { Bus } from './connection.js';
import { subjects } from './subjects.js';

export const HUB_EVENT_NAMES = [
  'message.sent',
  'message.delivered',
  'message.received',
  'message.failed',
  'credits.low_balance',
  'credits.purchased',
  'spending.threshold',
] as const;
export type HubEventName = (typeof HUB_EVENT_NAMES)[number];

interface MessageRef {
  taskId: string;
  contextId: string;
  /** Sender agent id. */
  from: string;
  /** Recipient agent id. */
  to: string;
}

/** The `data` of each event, as the spec's table lists it (credits.purchased: decisions.md §9). */
export interface HubEventData {
  'message.sent': MessageRef;
  /** `official`: an agent the hub runs itself (issue 20: they report delivery like any other). */
  'message.delivered': MessageRef & { deliveryMethod: 'websocket' | 'http' };
  'message.received': MessageRef;
  /** For x-ttl 0 to an offline recipient no task is stored: taskId is the id it would have had. */
  'message.failed': MessageRef & { error: string };
  'credits.low_balance': { currentBalance: number; threshold: number; currency: string };
  'credits.purchased': { amount: number; currency: string; balance: number };
  /** A spending budget crossed 80% or 100% of its limit (issue 28); once per level and period. */
  'spending.threshold': SpendingThresholdData;
}

export interface SpendingThresholdData {
  level: 80 | 100;
  /** `tenant`: the tenant-wide budget; `agent`: the budget of agentId. */
  scope: 'tenant' | 'agent';
  agentId: string | null;
  period: 'daily' | 'monthly';
  /** First day of the period (UTC), YYYY-MM-DD. */
  periodStart: string;
  limit: number;
  spent: number;
}

/** The stored payload, which is also the webhook body. */
export interface HubEvent<E extends HubEventName = HubEventName> {
  event: E;
  /** ISO 8601 UTC. */
  timestamp: string;
  data: HubEventData[E];
}

export interface PublishEventInput<E extends HubEventName> {
  /** The account the event belongs to (the webhook owner). */
  tenantId: string;
  event: E;
  data: HubEventData[E];
  /** Stable id (the webhook's X-Hub-Delivery); pass the same one when retrying. Default random. */
  id?: string;
  /** When it happened; default now. */
  at?: Date;
}

export interface PublishedEvent {
  id: string;
  seq: number;
  /** True when the stream already held this id (a retried publish). */
  duplicate: boolean;
}

/** Header carrying the event id next to Nats-Msg-Id, for consumers (X-Hub-Delivery). */
export const EVENT_ID_HEADER = 'Hub-Event-Id';

/** Publishes one account event durably; resolves once JetStream stored it (or had it already). */
export async function publishEvent<E extends HubEventName>(
  bus: Pick<Bus, 'publish'>,
  input: PublishEventInput<E>
): Promise<PublishedEvent> {
  const id = input.id ?? randomUUID();
  const body: HubEvent<E> = {
    event: input.event,
    timestamp: (input.at ?? new Date()).toISOString(),
    data: input.data,
  };
  const ack: PubAck = await bus.publish(
    subjects.hubEvent(input.tenantId, input.event),
    encodeJson(body),
    { msgID: id, headers: { [EVENT_ID_HEADER]: id } }
  );
  return { id, seq: ack.seq, duplicate: ack.duplicate };
}

/** Reads a stored event back (the dispatcher's side); the names are checked, the data trusted. */
export function decodeHubEvent(data: Uint8Array): HubEvent {
  const ev = decodeJson<HubEvent>(data);
  if (!(HUB_EVENT_NAMES as readonly string[]).includes(ev.event)) {
    throw new HubError('INVALID_REQUEST', 'unknown hub event', { data: { event: ev.event } });
  }
  return ev;
}

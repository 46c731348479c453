// The per-recipient queue actor (interface-spec Endpoints rule 6, "States and transitions";
// nats-2.9.md §3 Design A "Drain"): FIFO drain at 10 msg/s while the recipient is online, pause on
// busy/offline, HTTP retry every 5 minutes. Pure: delivery is the host's `deliverHead` actor.
import { and, assign, fromPromise, or, setup } from 'xstate';
import { HubError } from '../../runtime/errors/index.js';
import type {
  DeliverHeadInput,
  DeliverHeadOutput,
  DeliverOutcome,
  QueueEvent,
  QueueInput,
  QueueTransport,
} from './queue.events.js';

/** JSON only: the host persists it with the partition's snapshots. */
export interface QueueContext {
  recipientId: string;
  transport: QueueTransport;
  /** WebSocket: a socket is open; HTTP: the last attempt reached the endpoint. */
  online: boolean;
  delivered: number;
  /** Attempts that ended busy, offline or with an error. */
  failed: number;
  /** Expired heads dropped on the way (by deliverHead) or by the cleanup. */
  expired: number;
  purged: number;
  lastSeq: number | null;
  lastError: string | null;
  /** How long the last successful delivery took: the pacing delay subtracts it (10/s from start to start). */
  lastTookMs: number;
  /**
   * The recipient came online while an attempt was running. That attempt may have looked before
   * the socket existed and end offline or busy; without this the wake-up was lost and the queue
   * sat idle (or waited 5 s) beside a connected agent.
   */
  wokenMeanwhile: boolean;
}

/** Stands in until the host provides the real delivery with machine.provide(). */
async function deliverHeadNotProvided(): Promise<DeliverHeadOutput> {
  return Promise.reject(
    new HubError('INTERNAL', 'queue actor: the host did not provide deliverHead')
  );
}

/** The invoked actor's input: who to deliver to. */
function deliverInput({ context }: { context: QueueContext }): DeliverHeadInput {
  return { recipientId: context.recipientId, transport: context.transport };
}

// Setup-level implementations see done/error events typed as the machine's own events.
function outputOf(event: unknown): DeliverHeadOutput | undefined {
  return (event as { output?: DeliverHeadOutput }).output;
}

function errorText(event: unknown): string {
  const err = (event as { error?: unknown }).error;
  return err instanceof Error ? err.message : String(err);
}

export const queueMachine = setup({
  types: {
    context: {} as QueueContext,
    events: {} as QueueEvent,
    input: {} as QueueInput,
  },
  actors: {
    deliverHead: fromPromise<DeliverHeadOutput, DeliverHeadInput>(deliverHeadNotProvided),
  },
  delays: {
    /** 100 ms from one delivery's start to the next: the spec's 10 messages per second. */
    drainInterval: ({ context }) => Math.max(0, 100 - context.lastTookMs),
    /** HTTP recipients: the spec's 5-minute retry. */
    retryInterval: 300_000,
    /** A connected WebSocket recipient that was busy (backpressure) is tried again. */
    busyRetryInterval: 5_000,
  },
  guards: {
    outcomeIs: ({ event }, params: { outcome: DeliverOutcome }) =>
      outputOf(event)?.outcome === params.outcome,
    isHttp: ({ context }) => context.transport === 'http',
    isWebSocket: ({ context }) => context.transport === 'websocket',
    isOnline: ({ context }) => context.online,
    wokenMeanwhile: ({ context }) => context.wokenMeanwhile,
  },
  actions: {
    markOnline: assign({ online: true }),
    markOffline: assign({ online: false }),
    markWoken: assign({ online: true, wokenMeanwhile: true }),
    clearWoken: assign({ wokenMeanwhile: false }),
    recordOutcome: assign(({ context, event }) => {
      const out = outputOf(event);
      if (out === undefined) return {};
      const expired = context.expired + (out.expired ?? 0);
      switch (out.outcome) {
        case 'delivered':
          return {
            delivered: context.delivered + 1,
            lastSeq: out.seq,
            lastTookMs: out.tookMs ?? 0,
            online: true,
            expired,
          };
        case 'empty':
          return { expired };
        case 'busy':
          return { failed: context.failed + 1, lastError: out.reason ?? 'busy', expired };
        case 'offline':
          return {
            failed: context.failed + 1,
            lastError: out.reason ?? 'offline',
            online: false,
            expired,
          };
        default: {
          const never: never = out;
          return never;
        }
      }
    }),
    recordError: assign(({ context, event }) => ({
      failed: context.failed + 1,
      lastError: errorText(event),
    })),
    countExpired: assign(({ context, event }) => ({
      expired: context.expired + (event.type === 'queue.expired' ? event.count : 0),
    })),
    countPurged: assign(({ context, event }) => ({
      purged: context.purged + (event.type === 'queue.purged' ? event.count : 0),
    })),
  },
}).createMachine({
  id: 'queue',
  description: 'One recipient queue: FIFO drain at 10 msg/s while online, retries while not',
  context: ({ input }) => ({
    recipientId: input.recipientId,
    transport: input.transport,
    online: input.online ?? input.transport === 'http',
    delivered: 0,
    failed: 0,
    expired: 0,
    purged: 0,
    lastSeq: null,
    lastError: null,
    lastTookMs: 0,
    wokenMeanwhile: false,
  }),
  initial: 'idle',
  on: {
    'queue.expired': { actions: 'countExpired' },
    'queue.purged': { actions: 'countPurged' },
  },
  states: {
    idle: {
      description: 'Nothing to deliver, or a WebSocket recipient with no socket',
      on: {
        'recipient.online': { target: 'draining', actions: 'markOnline' },
        'recipient.offline': [
          { guard: 'isHttp', target: 'waiting', actions: 'markOffline' },
          { actions: 'markOffline' },
        ],
        // HTTP: an attempt decides; the host sends recipient.offline first when one just failed.
        'queue.enqueued': { guard: or(['isHttp', 'isOnline']), target: 'draining' },
        // Messages may have been queued while no actor ran: look once.
        'queue.resume': { guard: 'isOnline', target: 'draining' },
      },
    },
    draining: {
      description: 'Recipient online: the head is delivered, then the next after drainInterval',
      initial: 'delivering',
      on: {
        'recipient.offline': [
          { guard: 'isHttp', target: 'waiting', actions: 'markOffline' },
          { target: 'idle', actions: 'markOffline' },
        ],
      },
      states: {
        delivering: {
          // No queue.resume here: restoring a snapshot taken in this state restarts deliverHead.
          description: 'deliverHead runs; an expired head is dropped, never delivered',
          entry: 'clearWoken',
          on: { 'recipient.online': { actions: 'markWoken' } },
          invoke: {
            src: 'deliverHead',
            input: deliverInput,
            onDone: [
              {
                guard: { type: 'outcomeIs', params: { outcome: 'delivered' } },
                target: 'pacing',
                actions: 'recordOutcome',
              },
              {
                guard: { type: 'outcomeIs', params: { outcome: 'empty' } },
                target: '#queue.idle',
                actions: 'recordOutcome',
              },
              {
                // The socket it missed exists now: try again at once.
                guard: 'wokenMeanwhile',
                target: 'delivering',
                reenter: true,
                actions: ['recordOutcome', 'markOnline'],
              },
              {
                guard: and([
                  { type: 'outcomeIs', params: { outcome: 'offline' as const } },
                  'isWebSocket',
                ]),
                target: '#queue.idle',
                actions: 'recordOutcome',
              },
              { target: '#queue.waiting', actions: 'recordOutcome' },
            ],
            onError: { target: '#queue.waiting', actions: 'recordError' },
          },
        },
        pacing: {
          description: 'Spacing between two deliveries (10 per second)',
          after: { drainInterval: 'delivering' },
          on: { 'queue.resume': 'delivering' },
        },
      },
    },
    waiting: {
      description:
        'Delivery paused: HTTP retries after retryInterval; WebSocket waits for recipient.online ' +
        '(or retries a busy socket after busyRetryInterval)',
      after: {
        retryInterval: { guard: 'isHttp', target: 'draining' },
        busyRetryInterval: { guard: and(['isWebSocket', 'isOnline']), target: 'draining' },
      },
      on: {
        'recipient.online': { target: 'draining', actions: 'markOnline' },
        'recipient.offline': [
          { guard: 'isWebSocket', target: 'idle', actions: 'markOffline' },
          { actions: 'markOffline' },
        ],
        'queue.resume': { target: 'waiting', reenter: true },
      },
    },
  },
});

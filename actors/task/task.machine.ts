// The A2A task lifecycle (interface-spec "States and transitions", decisions.md §8):
// submitted → working → input-required ⇄ working → completed | failed | canceled | rejected.
// Pure: no I/O, no clock. Context is the hub's Task model; every observable change is appended to
// `events` with a rising `rev`, which SSE uses as the event id and the resume point.
import { assign, setup } from 'xstate';
import type { Task, TaskEventRecord, TaskStateName } from '../../runtime/protocol/index.js';
import type { RespondState, TaskEvent, TaskInput } from './task.events.js';

const statusText = (e: TaskEvent): string | undefined => {
  switch (e.type) {
    case 'task.respond':
      return e.statusText;
    case 'task.fail':
      return e.error;
    case 'task.cancel':
      return e.reason;
    case 'task.expire':
      return 'message expired before it could be delivered';
    case 'task.start':
    case 'task.calling':
    case 'task.input':
    case 'task.queued':
    case 'task.redeliver':
    case 'task.received':
      return undefined;
    default: {
      const never: never = e;
      return never;
    }
  }
};

type Unrevved = TaskEventRecord extends infer E
  ? E extends TaskEventRecord
    ? Omit<E, 'rev'>
    : never
  : never;

function record(ctx: Task, ev: Unrevved): Pick<Task, 'events' | 'rev'> {
  const rev = ctx.rev + 1;
  const next: TaskEventRecord = { ...ev, rev };
  return { rev, events: [...ctx.events, next] };
}

export const taskMachine = setup({
  types: {
    context: {} as Task,
    events: {} as TaskEvent,
    input: {} as TaskInput,
  },
  actions: {
    setStatus: assign(({ context, event }, params: { state: TaskStateName }) => {
      const text = statusText(event);
      const status = {
        state: params.state,
        timestamp: event.at,
        ...(text !== undefined ? { message: text } : {}),
      };
      // A standard server's own task id rides on its first reply; kept for the continuation.
      const remote =
        event.type === 'task.respond' && event.remoteTaskId !== undefined
          ? { remoteTaskId: event.remoteTaskId }
          : {};
      return { status, ...remote, ...record(context, { type: 'status', status }) };
    }),
    // Delivery bookkeeping (Task.delivery): never an observable change, so no rev and no event.
    markDelivered: assign(({ event }) => ({
      delivery: undefined,
      deliveredVia: event.type === 'task.start' ? event.node : undefined,
      calling: undefined,
    })),
    markCalling: assign(({ event }) =>
      event.type === 'task.calling' ? { calling: { node: event.node, until: event.until } } : {}
    ),
    markQueued: assign({ delivery: 'queued' as const, calling: undefined }),
    markPending: assign({
      delivery: 'pending' as const,
      deliveredVia: undefined,
      received: undefined,
      calling: undefined,
    }),
    markReceived: assign({ received: true as const }),
    appendMessage: assign(({ context, event }) => {
      if ((event.type !== 'task.respond' && event.type !== 'task.input') || !event.message)
        return {};
      return {
        messages: [...context.messages, event.message],
        ...record(context, { type: 'message', message: event.message }),
      };
    }),
    appendArtifact: assign(({ context, event }) => {
      if (event.type !== 'task.respond' || !event.artifact) return {};
      const a = event.artifact;
      const i = context.artifacts.findIndex((x) => x.artifactId === a.artifactId);
      const artifacts =
        i < 0
          ? [...context.artifacts, a]
          : context.artifacts.map((x, j) =>
              j === i ? { ...x, parts: [...x.parts, ...a.parts] } : x
            );
      return {
        artifacts,
        ...record(context, {
          type: 'artifact',
          artifactId: a.artifactId,
          append: i >= 0,
          lastChunk: event.lastChunk !== false,
          parts: a.parts,
        }),
      };
    }),
  },
  guards: {
    undelivered: ({ context }) => context.delivery !== undefined,
    // Pushed and not answered since (an answer clears deliveredVia). A socket's own close names
    // the message: a later one may be under way, and an acknowledged one is with the agent.
    redeliverable: ({ context, event }) =>
      event.type === 'task.redeliver' &&
      context.deliveredVia !== undefined &&
      (event.messageId === undefined ||
        (!context.received && context.messages.at(-1)?.messageId === event.messageId)),
    respondsWith: ({ context, event }, params: { state: RespondState }) =>
      event.type === 'task.respond' &&
      event.by === context.recipientId &&
      event.state === params.state,
    fromRecipient: ({ context, event }) =>
      event.type === 'task.respond' && event.by === context.recipientId,
    // Only the first acknowledgement of a delivery changes (and writes) anything.
    acknowledges: ({ context, event }) =>
      event.type === 'task.received' && event.by === context.recipientId && !context.received,
    fromSender: ({ context, event }) =>
      (event.type === 'task.input' || event.type === 'task.cancel') &&
      event.by === context.senderId,
  },
}).createMachine({
  id: 'task',
  description: 'One A2A task between a sender and a recipient agent',
  context: ({ input }) => ({
    id: input.id,
    contextId: input.contextId,
    senderId: input.senderId,
    recipientId: input.recipientId,
    senderTenantId: input.senderTenantId,
    recipientTenantId: input.recipientTenantId,
    createdAt: input.at,
    status: { state: 'submitted', timestamp: input.at },
    messages: [input.message],
    artifacts: [],
    ...(input.configuration ? { configuration: input.configuration } : {}),
    delivery: input.queued ? ('queued' as const) : ('pending' as const),
    events: [{ rev: 1, type: 'status', status: { state: 'submitted', timestamp: input.at } }],
    rev: 1,
  }),
  initial: 'submitted',
  states: {
    submitted: {
      description: 'Accepted by the hub; not yet delivered to the recipient (possibly queued)',
      on: {
        'task.start': {
          target: 'working',
          actions: [{ type: 'setStatus', params: { state: 'working' } }, 'markDelivered'],
        },
        'task.calling': { guard: 'undelivered', actions: 'markCalling' },
        'task.queued': { guard: 'undelivered', actions: 'markQueued' },
        // The push's acknowledgement can overtake the owner's own task.start.
        'task.received': { guard: 'acknowledges', actions: 'markReceived' },
        'task.respond': [
          ...finishing(),
          {
            guard: 'fromRecipient',
            target: 'working',
            actions: [
              'appendMessage',
              'appendArtifact',
              { type: 'setStatus', params: { state: 'working' } },
              'markDelivered',
            ],
          },
        ],
        'task.cancel': {
          guard: 'fromSender',
          target: 'canceled',
          actions: { type: 'setStatus', params: { state: 'canceled' } },
        },
        'task.expire': {
          target: 'failed',
          actions: { type: 'setStatus', params: { state: 'failed' } },
        },
        'task.fail': {
          target: 'failed',
          actions: { type: 'setStatus', params: { state: 'failed' } },
        },
      },
    },
    working: {
      description: 'Delivered; the recipient is processing (artifact chunks may stream in)',
      on: {
        // A continuation's message (task.input) is delivered, queued or pushed again here.
        'task.start': { guard: 'undelivered', actions: 'markDelivered' },
        'task.calling': { guard: 'undelivered', actions: 'markCalling' },
        'task.queued': { guard: 'undelivered', actions: 'markQueued' },
        'task.redeliver': { guard: 'redeliverable', actions: 'markPending' },
        'task.received': { guard: 'acknowledges', actions: 'markReceived' },
        'task.respond': [
          ...finishing(),
          {
            guard: 'fromRecipient',
            actions: ['appendMessage', 'appendArtifact', 'markDelivered'],
          },
        ],
        'task.cancel': {
          guard: 'fromSender',
          target: 'canceled',
          actions: { type: 'setStatus', params: { state: 'canceled' } },
        },
        'task.fail': {
          target: 'failed',
          actions: { type: 'setStatus', params: { state: 'failed' } },
        },
      },
    },
    'input-required': {
      description: 'The recipient asked the sender for more input',
      on: {
        'task.input': {
          guard: 'fromSender',
          target: 'working',
          actions: [
            'appendMessage',
            { type: 'setStatus', params: { state: 'working' } },
            'markPending',
          ],
        },
        'task.cancel': {
          guard: 'fromSender',
          target: 'canceled',
          actions: { type: 'setStatus', params: { state: 'canceled' } },
        },
        'task.fail': {
          target: 'failed',
          actions: { type: 'setStatus', params: { state: 'failed' } },
        },
      },
    },
    completed: { type: 'final', description: 'The recipient finished the task' },
    failed: { type: 'final', description: 'Delivery or processing failed, or the message expired' },
    canceled: { type: 'final', description: 'Canceled by the sender' },
    rejected: { type: 'final', description: 'The recipient refused the task' },
  },
});

/** Transitions out of submitted/working on a reply that ends or pauses the task. */
function finishing() {
  return (['completed', 'failed', 'rejected', 'input-required'] as const).map((state) => ({
    guard: { type: 'respondsWith' as const, params: { state } },
    target: state,
    actions: [
      'appendMessage',
      'appendArtifact',
      { type: 'setStatus', params: { state } },
      'markDelivered',
    ] as const,
  }));
}

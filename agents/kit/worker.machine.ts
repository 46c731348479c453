// One member of an official agent's pool: idle until given a request, working while its handler
// runs (with a deadline), then idle again. The pool keeps N of these per agent per node.
import { assign, fromPromise, setup } from 'xstate';

export interface WorkerContext {
  handled: number;
  failed: number;
}

export interface WorkItem {
  run: (signal: AbortSignal) => Promise<void>;
}

export const agentWorkerMachine = setup({
  types: {
    context: {} as WorkerContext,
    events: {} as { type: 'work.assign'; item: WorkItem },
  },
  actors: {
    runItem: fromPromise<void, { item: WorkItem }>(({ input, signal }) => input.item.run(signal)),
  },
  actions: {
    countHandled: assign({ handled: ({ context }) => context.handled + 1 }),
    countFailed: assign({ failed: ({ context }) => context.failed + 1 }),
  },
}).createMachine({
  id: 'agentWorker',
  description: 'A pool member of an official agent',
  context: { handled: 0, failed: 0 },
  initial: 'idle',
  states: {
    idle: {
      description: 'Waiting for a request',
      on: { 'work.assign': 'working' },
    },
    working: {
      description: "Running the agent's handler for one request",
      invoke: {
        src: 'runItem',
        input: ({ event }) => ({ item: event.item }),
        onDone: { target: 'idle', actions: 'countHandled' },
        onError: { target: 'idle', actions: 'countFailed' },
      },
    },
  },
});

// The daily cleanup of expired queued messages (decisions.md §7: 00:00 UTC by default,
// configurable). One per node; it cleans the partitions the node owns. The wait is computed from
// the clock at each entry to `scheduled`, so a run that takes long never shifts the next one.
import { assign, fromPromise, setup } from 'xstate';
import { HubError } from '../../runtime/errors/index.js';

export interface CleanupContext {
  runs: number;
  lastRemoved: number | null;
  lastError: string | null;
}

const DAY_MS = 86_400_000;

/** Milliseconds from `now` to the next `minuteOfDay` (minutes after 00:00 UTC); never 0. */
export function msUntilNextRun(now: number, minuteOfDay: number): number {
  const dayStart = now - (now % DAY_MS);
  let next = dayStart + minuteOfDay * 60_000;
  if (next <= now) next += DAY_MS;
  return next - now;
}

async function runCleanupNotProvided(): Promise<number> {
  return Promise.reject(new HubError('INTERNAL', 'queue cleanup: runCleanup not provided'));
}

export const cleanupMachine = setup({
  types: {
    context: {} as CleanupContext,
    events: {} as { type: 'cleanup.now' },
  },
  actors: {
    /** Resolves with the number of expired messages removed. */
    runCleanup: fromPromise<number>(runCleanupNotProvided),
  },
  delays: {
    /** Provided by the host: msUntilNextRun(clock, configured minute). */
    untilNextRun: DAY_MS,
  },
}).createMachine({
  id: 'queueCleanup',
  description: 'Removes expired queued messages once a day and fails their tasks',
  context: { runs: 0, lastRemoved: null, lastError: null },
  initial: 'scheduled',
  states: {
    scheduled: {
      after: { untilNextRun: 'running' },
      on: { 'cleanup.now': 'running' },
    },
    running: {
      invoke: {
        src: 'runCleanup',
        onDone: {
          target: 'scheduled',
          actions: assign(({ context, event }) => ({
            runs: context.runs + 1,
            lastRemoved: event.output,
            lastError: null,
          })),
        },
        onError: {
          target: 'scheduled',
          actions: assign(({ context, event }) => ({
            runs: context.runs + 1,
            lastError: event.error instanceof Error ? event.error.message : String(event.error),
          })),
        },
      },
    },
  },
});

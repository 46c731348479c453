// The hub's own XState machines and their event types: the only import surface of actors/.
import { taskMachine } from './task/task.machine.js';

export { taskMachine };
export type { TaskEvent, TaskInput, RespondState } from './task/task.events.js';

/** Every machine the hub runs, for the host, /debug and machines:export. */
export const allMachines = [taskMachine] as const;

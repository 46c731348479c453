// A task's life on the host, three ways: spawned, `task.start`, then `task.respond` completed
// with a message, its record encoded for the log after each of the three states (what the store
// writes on the round trip).
//   full:  createActor + start + subscribe, getPersistedSnapshot per write (the host before)
//   pure:  XState v5's initialTransition/transition on a plain snapshot, compact record
//   table: the host's light actor (transition table compiled from the machine), compact record
//   encodeOnly: the three compact encodes alone (the floor every variant pays)
// Interleaved rounds, so a loaded machine slows every variant alike; the median of each is shown.
// Run: node --import tsx test/bench/micro/light-actor.bench.ts [lives per round] [rounds]
import { createActor, initialTransition, transition } from 'xstate';
import { taskMachine, type TaskEvent, type TaskInput } from '../../../actors/index.js';
import { encodeJson } from '../../../runtime/bus/index.js';
import { toRecord } from '../../../runtime/host/actor-record.js';
import { actorKind } from '../../../runtime/host/hosted-actor.js';

const LIVES = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 7);

const input = (i: number): TaskInput => ({
  id: `task-${i}`,
  contextId: `ctx-${i}`,
  senderId: 'agent-a',
  recipientId: 'agent-b',
  senderTenantId: 't1',
  recipientTenantId: 't2',
  message: { role: 'user', messageId: `m-${i}`, parts: [{ kind: 'text', text: 'hello there' }] },
  at: 1_000,
});
const start: TaskEvent = { type: 'task.start', at: 1_001, node: 'n1' };
const reply: TaskEvent = {
  type: 'task.respond',
  at: 1_002,
  by: 'agent-b',
  state: 'completed',
  message: { role: 'agent', messageId: 'r-1', parts: [{ kind: 'text', text: 'hello back' }] },
};

let sink = 0;

function full(n: number): void {
  for (let i = 0; i < n; i++) {
    const a = createActor(taskMachine, { input: input(i), systemId: `task:${i}` });
    a.start();
    const write = () => {
      const snapshot: unknown = a.getPersistedSnapshot();
      sink += encodeJson({ snapshot, createdAt: 1_000 }).byteLength;
    };
    write();
    a.subscribe({ next: write });
    a.send(start);
    a.send(reply);
    a.stop();
  }
}

function pure(n: number): void {
  for (let i = 0; i < n; i++) {
    const write = (s: { value: unknown; context: unknown; status: string }) => {
      const snapshot = { value: s.value, status: s.status, context: s.context };
      sink += encodeJson({ snapshot, createdAt: 1_000 }).byteLength;
    };
    let [s] = initialTransition(taskMachine, input(i));
    write(s);
    [s] = transition(taskMachine, s, start);
    write(s);
    [s] = transition(taskMachine, s, reply);
    write(s);
  }
}

const kind = actorKind(taskMachine);
function table(n: number): void {
  for (let i = 0; i < n; i++) {
    const a = kind.spawn(input(i), `task:${i}`);
    const write = () => {
      sink += encodeJson(toRecord(a.persisted(), 1_000, undefined)).byteLength;
    };
    write();
    a.subscribe(write);
    a.send(start);
    a.send(reply);
    a.stop();
  }
}

// The floor: only the three encodes of the compact records the table variant writes.
const states = (() => {
  const a = kind.spawn(input(0), 'task:0');
  const out = [a.persisted()];
  a.send(start);
  out.push(a.persisted());
  a.send(reply);
  out.push(a.persisted());
  return out;
})();
function encodeOnly(n: number): void {
  for (let i = 0; i < n; i++) {
    for (const p of states) sink += encodeJson(toRecord(p, 1_000, undefined)).byteLength;
  }
}

const variants = { full, pure, table, encodeOnly } as const;
type Name = keyof typeof variants;
const times: Record<Name, number[]> = { full: [], pure: [], table: [], encodeOnly: [] };

// Warm-up, then interleaved rounds.
for (const f of Object.values(variants)) f(2_000);
for (let r = 0; r < ROUNDS; r++) {
  for (const name of Object.keys(variants) as Name[]) {
    const t0 = process.cpuUsage();
    variants[name](LIVES);
    const used = process.cpuUsage(t0);
    times[name].push((used.user + used.system) / LIVES);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base = median(times.full);
console.log(`task life (spawn + 2 events + 3 record encodes), ${LIVES} lives x ${ROUNDS} rounds`);
for (const name of Object.keys(variants) as Name[]) {
  const m = median(times[name]);
  console.log(
    `${name.padEnd(10)} ${m.toFixed(2).padStart(8)} µs CPU/life  ` +
      `(min ${Math.min(...times[name]).toFixed(2)})  ${(base / m).toFixed(2)}x vs full`
  );
}
for (const name of Object.keys(variants) as Name[]) {
  sink = 0;
  variants[name](1);
  console.log(`${name.padEnd(10)} bytes written per life: ${sink}`);
}

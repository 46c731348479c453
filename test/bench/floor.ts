// The cost floor of the work the spec and the design require per message, measured alone on this
// machine, so the throughput targets of issues 3 and 4 can be set against what two cores can do at
// all: the Ed25519 signature every delivery carries (decisions.md §4), the XState task actor every
// task is, and the acknowledged JetStream writes and deletes that make a message durable and take
// it off a queue. Each is measured with nothing else running; a hub does all of them, and the load
// generator, the agent process, nats-server and PostgreSQL share the same two cores.
import { generateKeyPairSync, sign } from 'node:crypto';
import { cpus } from 'node:os';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { createActor } from 'xstate';
import { taskMachine } from '../../actors/task/task.machine.js';
import type { TaskEvent, TaskInput } from '../../actors/task/task.events.js';
import { EnvelopeSigner, generateSigningKey } from '../../runtime/envelope/index.js';
import { startNatsServer } from '../support/nats-server.js';

export interface Rate {
  /** Microseconds of one core per operation (CPU-bound rows) or of wall time (JetStream rows). */
  micros: number;
  perSecond: number;
}

export interface FloorReport {
  cores: number;
  rawSign: Rate;
  envelopeSign: Rate;
  taskActor: Rate;
  /** Acknowledged publishes of 1 KiB, 1,000 in flight, file storage, one server (R1). */
  jetstreamPublish: Rate;
  /** Deletes by sequence, 100 in flight, on the same stream. */
  jetstreamDelete: Rate;
}

function timeSync(n: number, f: (i: number) => void): Rate {
  for (let i = 0; i < Math.min(n, 2000); i++) f(i);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f(i);
  const micros = ((performance.now() - t0) * 1000) / n;
  return { micros, perSecond: 1e6 / micros };
}

async function timeAsync(n: number, inFlight: number, f: (i: number) => Promise<unknown>) {
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) await f(next++);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const micros = ((performance.now() - t0) * 1000) / n;
  return { micros, perSecond: 1e6 / micros };
}

const fields = {
  sender: { agentId: 'agent-000000000001', tenantId: 'tn-000000000001' },
  recipient: { agentId: 'agent-echo-official', tenantId: 'tn-official' },
  taskId: 'task-0000000000000000',
  contextId: 'ctx-0000000000000000',
  messageId: 'msg-0',
};

const input = (i: number): TaskInput => ({
  id: `task-${i}`,
  contextId: 'ctx-1',
  senderId: 'agent-a',
  recipientId: 'agent-b',
  senderTenantId: 't1',
  recipientTenantId: 't2',
  message: { role: 'user', messageId: `m${i}`, parts: [{ kind: 'text', text: 'hello' }] },
  at: 1,
});

const respond = (i: number): TaskEvent => ({
  type: 'task.respond',
  at: 3,
  by: 'agent-b',
  state: 'completed',
  message: { role: 'agent', messageId: `r${i}`, parts: [{ kind: 'text', text: 'echo: hello' }] },
  artifact: { artifactId: `a${i}`, parts: [{ kind: 'text', text: 'echo: hello' }] },
});

export async function floorBench(): Promise<FloorReport> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const payload = Buffer.alloc(220, 'x');
  const rawSign = timeSync(30_000, () => sign(null, payload, privateKey));
  const signer = new EnvelopeSigner(generateSigningKey());
  const now = Date.now();
  const envelopeSign = timeSync(30_000, (i) =>
    signer.sign({ ...fields, messageId: `msg-${i}` }, { now })
  );
  // A blocking round trip's task: created, delivered (working), answered (completed).
  const taskActor = timeSync(30_000, (i) => {
    const a = createActor(taskMachine, { input: input(i) }).start();
    a.send({ type: 'task.start', at: 2, node: 'n1' });
    a.send(respond(i));
    a.stop();
  });

  const nats = await startNatsServer();
  const nc = await connect({ servers: nats.url });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'FLOOR', subjects: ['floor.>'] });
    const js = jetstream(nc);
    const body = new Uint8Array(1024).fill(120);
    const N = 60_000;
    const seqs: number[] = [];
    const jetstreamPublish = await timeAsync(N, 1000, async (i) => {
      const ack = await js.publish(`floor.${i % 1000}`, body);
      seqs.push(ack.seq);
    });
    const jetstreamDelete = await timeAsync(N, 100, (i) =>
      jsm.streams.deleteMessage('FLOOR', seqs[i] as number, false)
    );
    return {
      cores: cpus().length,
      rawSign,
      envelopeSign,
      taskActor,
      jetstreamPublish,
      jetstreamDelete,
    };
  } finally {
    await nc.close();
    await nats.close();
  }
}

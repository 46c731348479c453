// The smallest program that does a blocking round trip's durable work, for issue 19's rule that a
// target is a physical limit only when such a prototype misses it too. Per request it does what the
// hub must: parse the JSON-RPC body and check the fields it reads, look the key up by its SHA-256,
// append the submitted task to JetStream (not awaited: pipelined), sign the x-hub envelope with
// Ed25519 over RFC 8785 JSON (the hub's own signer), send the frame to the agent over WebSocket,
// parse its answer, append the completed task, and answer once both appends are acknowledged; the
// task's index row goes to PostgreSQL in batches, as the hub's does. No rate limit, metrics,
// logging, validation of the agent's frame beyond its fields, or recovery: what it lacks is
// what the hub may spend more on. It speaks the hub's WebSocket frames, so the benchmark's echo
// agent serves both. Its edge is uWS, as the hub's is: the only file outside gateway/ that imports
// it, because a measuring instrument on another edge (node:http and `ws` cost about 40% more CPU
// per round trip here) would not tell what the hub's own work costs.
// `node --import tsx test/bench/prototype-hub.ts <port> <nats url> <database url> <api key> <agent key>`
import { createHash, randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import postgres from 'postgres';
import uWS from 'uWebSockets.js';
import { EnvelopeSigner, generateSigningKey } from '../../runtime/envelope/index.js';
import { JetStreamPublisher, type PubAck } from '../../runtime/bus/index.js';

const [portArg, natsUrl, dbUrl, senderKey, agentKey] = process.argv.slice(2);
const hash = (key: string) => createHash('sha256').update(key).digest('base64url');
const keys = new Map([
  [hash(senderKey!), { agentId: 'sender', tenantId: 'tenant' }],
  [hash(agentKey!), { agentId: 'echo', tenantId: 'tenant' }],
]);

const nc = await connect({ servers: natsUrl! });
const jsm = await jetstreamManager(nc);
await jsm.streams.add({ name: 'PROTO', subjects: ['proto.>'], num_replicas: 1 });
// The hub's own publisher: a JetStream publish with its ack and a timeout, without the Error
// objects nats.js builds for every request (js.publish spent 13% of this program's CPU on them).
const js = new JetStreamPublisher(nc);
const enc = new TextEncoder();
const publish = (subject: string, body: string) =>
  js.publish(subject, enc.encode(body), undefined, 5000);
const sql = postgres(dbUrl!, { max: 2 });
await sql`create table if not exists proto_tasks (id text primary key, sender text, recipient text,
  state text, body jsonb)`;
const signer = new EnvelopeSigner(generateSigningKey());

interface Pending {
  res: uWS.HttpResponse;
  aborted: { value: boolean };
  rpcId: unknown;
  task: Record<string, unknown>;
  submitted: Promise<PubAck>;
}
const pending = new Map<string, Pending>();
let agent: uWS.WebSocket<unknown> | undefined;

// The index, as the hub writes it: one multi-row insert per turn of batching.
let rows: Array<Record<string, unknown>> = [];
setInterval(() => {
  if (rows.length === 0) return;
  const batch = rows;
  rows = [];
  void sql`insert into proto_tasks ${sql(batch, 'id', 'sender', 'recipient', 'state', 'body')}
    on conflict (id) do update set state = excluded.state, body = excluded.body`.catch(
    () => undefined
  );
}, 20).unref();

function fail(res: uWS.HttpResponse, aborted: { value: boolean }, status: string, message: string) {
  if (aborted.value) return;
  res.cork(() => {
    res
      .writeStatus(status)
      .writeHeader('content-type', 'application/json')
      .end(JSON.stringify({ error: { message } }));
  });
}

function onRequest(res: uWS.HttpResponse, req: uWS.HttpRequest): void {
  const aborted = { value: false };
  res.onAborted(() => (aborted.value = true));
  const who = keys.get(hash(req.getHeader('authorization').slice(7)));
  if (!who) return fail(res, aborted, '401 Unauthorized', 'unauthorized');
  let body = Buffer.alloc(0);
  res.onData((chunk, last) => {
    body = Buffer.concat([body, Buffer.from(chunk)]);
    if (last) onBody(res, aborted, who, body);
  });
}

function onBody(
  res: uWS.HttpResponse,
  aborted: { value: boolean },
  who: { agentId: string; tenantId: string },
  raw: Buffer
): void {
  let rpc: {
    id?: unknown;
    method?: unknown;
    params?: { message?: Record<string, unknown>; configuration?: { agentId?: unknown } };
  };
  try {
    rpc = JSON.parse(raw.toString()) as typeof rpc;
  } catch {
    return fail(res, aborted, '400 Bad Request', 'parse error');
  }
  const message = rpc.params?.message;
  const to = rpc.params?.configuration?.agentId;
  if (
    rpc.method !== 'SendMessage' ||
    typeof message?.['messageId'] !== 'string' ||
    !Array.isArray(message['parts']) ||
    typeof to !== 'string'
  ) {
    return fail(res, aborted, '400 Bad Request', 'invalid params');
  }
  if (!agent) return fail(res, aborted, '503 Service Unavailable', 'agent offline');
  const id = randomUUID();
  const contextId = randomUUID();
  const task = {
    id,
    contextId,
    senderId: who.agentId,
    recipientId: 'echo',
    status: { state: 'submitted', timestamp: Date.now() },
    messages: [message],
    artifacts: [] as unknown[],
  };
  const submitted = publish(`proto.task.${id}`, JSON.stringify(task));
  const envelope = signer.sign(
    {
      sender: who,
      recipient: { agentId: 'echo', tenantId: 'tenant' },
      taskId: id,
      contextId,
      messageId: message['messageId'],
    },
    { now: Date.now() }
  );
  pending.set(id, { res, aborted, rpcId: rpc.id, task, submitted });
  agent.send(JSON.stringify({ type: 'message', taskId: id, payload: message, envelope }));
}

function onAgentFrame(data: ArrayBuffer): void {
  const f = JSON.parse(Buffer.from(data).toString()) as {
    type?: string;
    taskId?: string;
    status?: { state?: string };
    artifact?: unknown;
  };
  if (f.type !== 'task_response' || typeof f.taskId !== 'string') return;
  const p = pending.get(f.taskId);
  if (!p) return;
  pending.delete(f.taskId);
  const task = p.task;
  task['status'] = { state: f.status?.state ?? 'completed', timestamp: Date.now() };
  if (f.artifact !== undefined) (task['artifacts'] as unknown[]).push(f.artifact);
  const body = JSON.stringify(task);
  const completed = publish(`proto.task.${f.taskId}`, body);
  rows.push({
    id: f.taskId,
    sender: task['senderId'],
    recipient: task['recipientId'],
    state: 'completed',
    body: sql.json(task as never),
  });
  Promise.all([p.submitted, completed]).then(
    () => {
      if (p.aborted.value) return;
      p.res.cork(() => {
        p.res
          .writeHeader('content-type', 'application/json')
          .end(`{"jsonrpc":"2.0","id":${JSON.stringify(p.rpcId)},"result":${body}}`);
      });
    },
    () => fail(p.res, p.aborted, '500 Internal Server Error', 'not durable')
  );
}

const app = uWS
  .App()
  .post('/*', onRequest)
  .ws('/ws', {
    compression: uWS.DISABLED,
    upgrade: (res, req, context) => {
      if (!keys.has(hash(req.getHeader('authorization').slice(7)))) {
        res.writeStatus('401 Unauthorized').end();
        return;
      }
      res.upgrade(
        {},
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context
      );
    },
    open: (ws) => {
      agent = ws;
      ws.send(JSON.stringify({ type: 'welcome' }));
    },
    message: (_ws, data) => onAgentFrame(data),
    close: () => (agent = undefined),
  });
let listenSocket: uWS.us_listen_socket | false = false;
app.listen('127.0.0.1', Number(portArg), (token) => {
  if (!token) process.exit(1);
  listenSocket = token;
  process.stdout.write(`listening ${portArg}\n`);
});
process.on('SIGTERM', () => {
  if (listenSocket) uWS.us_listen_socket_close(listenSocket);
  void Promise.allSettled([nc.drain(), sql.end({ timeout: 1 })]).then(() => process.exit(0));
});

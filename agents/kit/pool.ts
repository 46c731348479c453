// Runs an official agent as a pool of worker actors consuming hub.agent.<id>.invoke in the
// queue group named after the agent, so more members on more nodes add capacity. Requests beyond
// the pool's size wait in a bounded local queue; past that the hub is told the agent is busy.
import { createActor, type ActorRefFrom } from 'xstate';
import type { Subscription, Msg } from '@nats-io/nats-core';
import { decodeJson, encodeJson, subjects, type Bus } from '../../runtime/bus/index.js';
import { verifyEnvelope, type JwksInput } from '../../runtime/envelope/index.js';
import { ensureHubError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import {
  newArtifactId,
  textOf,
  type AgentAnswer,
  type Artifact,
} from '../../runtime/protocol/index.js';
import type { AgentAnswerWire, InvokeRequestWire } from './wire.js';
import type { AgentResult, OfficialAgent } from './types.js';
import { agentWorkerMachine, type WorkItem } from './worker.machine.js';

export interface PoolOptions {
  bus: Bus;
  log: Logger;
  jwks: () => JwksInput;
  size?: number;
  queueLimit?: number;
  deadlineMs?: number;
  now?: () => number;
}

export interface AgentPool {
  readonly agentId: string;
  stats(): { size: number; busy: number; queued: number; handled: number; failed: number };
  stop(): Promise<void>;
}

type Worker = ActorRefFrom<typeof agentWorkerMachine>;

export function runAgentPool(agent: OfficialAgent, o: PoolOptions): AgentPool {
  const now = o.now ?? Date.now;
  const size = o.size ?? 4;
  const queueLimit = o.queueLimit ?? 1000;
  const deadlineMs = o.deadlineMs ?? 60_000;
  const log = o.log.child({ agent: agent.id });
  const workers: Worker[] = Array.from({ length: size }, () =>
    createActor(agentWorkerMachine).start()
  );
  const queue: WorkItem[] = [];

  const dispatch = () => {
    for (const w of workers) {
      if (queue.length === 0) return;
      if (w.getSnapshot().matches('idle')) w.send({ type: 'work.assign', item: queue.shift()! });
    }
  };
  for (const w of workers) w.subscribe((s) => s.matches('idle') && dispatch());

  const reply = (msg: Msg, answer: AgentAnswerWire): void => {
    msg.respond(encodeJson(answer));
  };

  const handle = async (msg: Msg, signal: AbortSignal): Promise<void> => {
    let req: InvokeRequestWire;
    try {
      req = decodeJson<InvokeRequestWire>(msg.data);
    } catch {
      return reply(msg, { ok: false, error: 'malformed request' });
    }
    const verified = verifyEnvelope(req['x-hub'], o.jwks(), { now: now() });
    if (!verified.ok) {
      return reply(msg, { ok: false, error: `envelope rejected: ${verified.reason}` });
    }
    try {
      const result = await agent.handle(
        {
          text: textOf(req.message.parts),
          message: req.message,
          taskId: req.taskId,
          contextId: req.contextId,
          configuration: req.configuration,
          envelope: verified.envelope,
          sentAt: req.at,
        },
        { log, signal, now }
      );
      reply(msg, { ok: true, answer: toAnswer(result) });
    } catch (err) {
      const e = ensureHubError(err);
      if (e.code === 'INTERNAL') log.error({ err, taskId: req.taskId }, 'agent handler failed');
      // Agents fail tasks with a message that says what to fix; internals stay in the log.
      reply(msg, {
        ok: false,
        error: e.code === 'INTERNAL' ? 'the agent failed unexpectedly' : e.message,
      });
    }
  };

  const sub: Subscription = o.bus.nc.subscribe(subjects.agentInvoke(agent.id), {
    queue: agent.id,
    callback: (_err, msg) => {
      if (queue.length >= queueLimit) {
        reply(msg, { ok: false, error: 'the agent is busy; try again shortly' });
        return;
      }
      queue.push({
        run: async (signal) => {
          const timeout = AbortSignal.timeout(deadlineMs);
          await handle(msg, AbortSignal.any([signal, timeout]));
        },
      });
      dispatch();
    },
  });

  return {
    agentId: agent.id,
    stats() {
      let busy = 0;
      let handled = 0;
      let failed = 0;
      for (const w of workers) {
        const s = w.getSnapshot();
        if (s.matches('working')) busy++;
        handled += s.context.handled;
        failed += s.context.failed;
      }
      return { size, busy, queued: queue.length, handled, failed };
    },
    async stop() {
      await sub.drain();
      // Let the members finish what they hold.
      const deadline = Date.now() + 5000;
      while (workers.some((w) => w.getSnapshot().matches('working')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      for (const w of workers) w.stop();
    },
  };
}

function toAnswer(r: AgentResult): AgentAnswer {
  if (typeof r === 'string') {
    return { state: 'completed', artifacts: [textArtifact(r)] };
  }
  const artifacts: Artifact[] = [...(r.artifacts ?? [])];
  if (r.text !== undefined) artifacts.unshift(textArtifact(r.text));
  return {
    state: r.state ?? 'completed',
    ...(r.statusText !== undefined ? { statusText: r.statusText } : {}),
    artifacts,
  };
}

function textArtifact(text: string): Artifact {
  return { artifactId: newArtifactId(), parts: [{ kind: 'text', text }] };
}

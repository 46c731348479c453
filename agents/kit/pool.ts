// Runs an official agent as a pool of worker actors consuming hub.agent.<id>.invoke in the
// queue group named after the agent, so more members on more nodes add capacity. Requests beyond
// the pool's size wait in a bounded local queue; past that the hub is told the agent is busy.
// hub.agent.<id>.cancel (every member listens) aborts the handler of a task its sender canceled.
import { createActor, type ActorRefFrom } from 'xstate';
import type { Subscription, Msg } from '@nats-io/nats-core';
import { decodeJson, encodeJson, subjects, type Bus } from '../../runtime/bus/index.js';
import { verifyEnvelope, type JwksInput } from '../../runtime/envelope/index.js';
import { ensureHubError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import { textOf } from '../../runtime/protocol/index.js';
import { toAnswer } from './answer.js';
import { parseJsonText, wantsJson } from './request.js';
import type { AgentServices } from './services.js';
import type { AgentAnswerWire, InvokeRequestWire } from './wire.js';
import type { OfficialAgent } from './types.js';
import { agentWorkerMachine, type WorkItem } from './worker.machine.js';

export interface PoolOptions {
  bus: Bus;
  log: Logger;
  jwks: () => JwksInput;
  services: AgentServices;
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

const CANCELED = 'the task was canceled by its sender';

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
  /** Requests this member holds (queued or running), by task id, so a cancel can reach them. */
  const held = new Map<string, AbortController>();

  const dispatch = () => {
    for (const w of workers) {
      if (queue.length === 0) return;
      if (w.getSnapshot().matches('idle')) w.send({ type: 'work.assign', item: queue.shift()! });
    }
  };
  for (const w of workers) w.subscribe((s) => s.matches('idle') && dispatch());

  const reply = (msg: Msg, answer: AgentAnswerWire): void => {
    const data = encodeJson(answer);
    // NATS cannot carry it: the task fails with the reason instead of timing out at the hub.
    if (data.byteLength > o.bus.maxPayload) {
      msg.respond(
        encodeJson({
          ok: false,
          error:
            `reply too large to store: the agent's reply of ${data.byteLength} bytes exceeds ` +
            `the NATS server's max_payload (${o.bus.maxPayload} bytes)`,
        } satisfies AgentAnswerWire)
      );
      return;
    }
    msg.respond(data);
  };

  const handle = async (msg: Msg, req: InvokeRequestWire, signal: AbortSignal): Promise<void> => {
    if (signal.aborted) return reply(msg, { ok: false, error: CANCELED });
    const verified = verifyEnvelope(req['x-hub'], o.jwks(), { now: now() });
    if (!verified.ok) {
      return reply(msg, { ok: false, error: `envelope rejected: ${verified.reason}` });
    }
    const envelope = verified.envelope;
    const text = textOf(req.message.parts);
    const parsed = parseJsonText(text);
    const json = wantsJson(req.configuration, parsed);
    try {
      const result = await agent.handle(
        {
          text,
          json: parsed,
          wantsJson: json,
          message: req.message,
          taskId: req.taskId,
          contextId: req.contextId,
          configuration: req.configuration,
          envelope,
          senderId: envelope.sender.agentId,
          tenantId: envelope.sender.tenantId,
          sentAt: req.at,
        },
        { ...o.services, log, signal, now }
      );
      reply(msg, { ok: true, answer: toAnswer(result, json) });
    } catch (err) {
      const e = ensureHubError(err);
      if (e.code === 'INTERNAL' && !signal.aborted) {
        log.error({ err, taskId: req.taskId }, 'agent handler failed');
      }
      // Agents fail tasks with a message that says what to fix; internals stay in the log.
      reply(msg, { ok: false, error: failureText(e, signal) });
    }
  };

  const sub: Subscription = o.bus.nc.subscribe(subjects.agentInvoke(agent.id), {
    queue: agent.id,
    callback: (_err, msg) => {
      if (queue.length >= queueLimit) {
        reply(msg, { ok: false, error: 'the agent is busy; try again shortly' });
        return;
      }
      let req: InvokeRequestWire;
      try {
        req = decodeJson<InvokeRequestWire>(msg.data);
      } catch {
        reply(msg, { ok: false, error: 'malformed request' });
        return;
      }
      const cancel = new AbortController();
      held.set(req.taskId, cancel);
      queue.push({
        run: async (signal) => {
          const deadline = AbortSignal.timeout(deadlineMs);
          try {
            await handle(msg, req, AbortSignal.any([signal, deadline, cancel.signal]));
          } finally {
            held.delete(req.taskId);
          }
        },
      });
      dispatch();
    },
  });

  const cancels: Subscription = o.bus.nc.subscribe(subjects.agentCancel(agent.id), {
    callback: (_err, msg) => {
      try {
        const { taskId } = decodeJson<{ taskId: string }>(msg.data);
        held.get(taskId)?.abort(new Error(CANCELED));
      } catch (err) {
        log.warn({ err }, 'unreadable cancel');
      }
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
      cancels.unsubscribe();
      await sub.drain();
      // Let the members finish what they hold.
      const deadline = Date.now() + 5000;
      while (workers.some((w) => w.getSnapshot().matches('working')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      for (const w of workers) w.stop();
      await agent.stop?.();
    },
  };
}

function failureText(e: ReturnType<typeof ensureHubError>, signal: AbortSignal): string {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof Error && reason.message === CANCELED) return CANCELED;
    return 'the agent ran out of time (deadline passed)';
  }
  return e.code === 'INTERNAL' ? 'the agent failed unexpectedly' : e.message;
}

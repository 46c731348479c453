// The hub as official agents use it (agents/kit OfficialHub): the directory as the sender sees it,
// and forwarding a request to another agent as that sender. The envelope is verified by the pool
// before a handler runs; here it is only the source of whom to act for, so a forwarded request
// carries exactly the identity, visibility and data scope of the original caller.
import type { Envelope } from '../../runtime/envelope/index.js';
import { textOf, type Task } from '../../runtime/protocol/index.js';
import { listVisibleAgents, type Db, type Principal } from '../../infra/db/index.js';
import { newMessageId } from '../task/ids.js';
import { SETTLED, type TaskService } from '../task/task-service.js';

export interface ForwardRequest {
  agentId: string;
  text: string;
  signal: AbortSignal;
  timeoutMs: number;
}

export function createOfficialHub(sql: Db, tasks: TaskService) {
  const principalOf = (e: Envelope): Principal => ({
    kind: 'agent',
    agentId: e.sender.agentId,
    tenantId: e.sender.tenantId,
  });
  return {
    visibleAgents: (e: Envelope) => listVisibleAgents(sql, e.sender.tenantId),

    async forward(e: Envelope, o: ForwardRequest) {
      const principal = principalOf(e);
      const sent = await tasks.send(principal, {
        message: {
          role: 'user',
          messageId: newMessageId(),
          parts: [{ kind: 'text', text: o.text }],
        },
        agentId: o.agentId,
        blocking: false,
      });
      let task: Task = await tasks.waitFor(principal, sent.id, o.timeoutMs, o.signal);
      if (!SETTLED.has(task.status.state)) {
        // Out of time or called off: the forwarded task must not linger working for the caller.
        task = await tasks.cancel(principal, sent.id).catch(() => task);
      }
      return {
        agentId: task.recipientId,
        taskId: task.id,
        state: task.status.state,
        text: answerText(task),
      };
    },
  };
}

function answerText(t: Task): string {
  const fromArtifacts = (t.artifacts ?? [])
    .map((a) => textOf(a.parts))
    .filter((s) => s !== '')
    .join('\n');
  if (fromArtifacts !== '') return fromArtifacts;
  return t.status.message ?? '';
}

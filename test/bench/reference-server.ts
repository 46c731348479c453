// The reference for the round-trip benchmark: @a2a-js/sdk's own in-memory server on express with
// an echo executor that answers every message with a completed task carrying one text artifact.
// Run as a child process: `node --import tsx test/bench/reference-server.ts <port>`.
import { randomUUID } from 'node:crypto';
import express from 'express';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { TaskState } from '@a2a-js/sdk';

const port = Number(process.argv[2] ?? 0);

const card = {
  name: 'Reference Echo',
  description: 'a2a-js in-memory echo agent',
  version: '1.0.0',
  supportedInterfaces: [
    {
      url: `http://127.0.0.1:${port}/`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
      tenant: '',
    },
  ],
  capabilities: {
    streaming: false,
    pushNotifications: false,
    extensions: [],
    extendedAgentCard: false,
  },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
  securitySchemes: {},
  securityRequirements: [],
  signatures: [],
};

const executor: AgentExecutor = {
  execute: (ctx, bus) => {
    const text = ctx.userMessage.parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join(' ');
    const base = { taskId: ctx.taskId, contextId: ctx.contextId, metadata: undefined };
    bus.publish(
      AgentEvent.task({
        id: ctx.taskId,
        contextId: ctx.contextId,
        status: {
          state: TaskState.TASK_STATE_WORKING,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: {},
      })
    );
    bus.publish(
      AgentEvent.artifactUpdate({
        ...base,
        append: false,
        lastChunk: true,
        artifact: {
          artifactId: randomUUID(),
          name: '',
          description: '',
          parts: [
            {
              content: { $case: 'text', value: `echo: ${text}` },
              metadata: undefined,
              filename: '',
              mediaType: 'text/plain',
            },
          ],
          metadata: undefined,
          extensions: [],
        },
      } as never)
    );
    bus.publish(
      AgentEvent.statusUpdate({
        ...base,
        status: {
          state: TaskState.TASK_STATE_COMPLETED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
      })
    );
    bus.finished();
    return Promise.resolve();
  },
  cancelTask: () => Promise.resolve(),
};

const handler = new DefaultRequestHandler(card as never, new InMemoryTaskStore(), executor);
const app = express();
app.use(express.json({ limit: '1mb' }));
app.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
const server = app.listen(port, '127.0.0.1', () => {
  const addr = server.address() as { port: number };
  process.stdout.write(`listening ${addr.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

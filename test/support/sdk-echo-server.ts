// A standard A2A v1.0 server built with the official @a2a-js/sdk on express: every message is
// answered with a completed task carrying one text artifact. The round-trip benchmark's
// reference, and a standard agent for the hub to call in tests.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import express from 'express';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { TaskState } from '@a2a-js/sdk';

export interface SdkEchoServer {
  readonly url: string;
  readonly server: Server;
  /** The card the server describes itself with (A2A 1.0, JSON-RPC). */
  readonly card: Record<string, unknown>;
  close(): Promise<void>;
}

export interface SdkEchoOptions {
  port?: number;
  /** The artifact text is `${replyPrefix}${what was said}`. */
  replyPrefix?: string;
  /** A new task whose text matches asks for input first (input-required); the next turn echoes. */
  askForInputWhen?: RegExp;
  /** Sees every request's A2A-Version header and JSON-RPC params before the SDK does. */
  onRequest?: (version: string | undefined, params: Record<string, unknown>) => void;
}

const now = () => new Date().toISOString();

function echoExecutor(replyPrefix: string, askForInputWhen?: RegExp): AgentExecutor {
  return {
    execute: (ctx, bus) => {
      const said = ctx.userMessage.parts
        .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
        .join(' ');
      const base = { taskId: ctx.taskId, contextId: ctx.contextId, metadata: undefined };
      if (askForInputWhen?.test(said) && !ctx.task) {
        bus.publish(
          AgentEvent.task({
            id: ctx.taskId,
            contextId: ctx.contextId,
            status: {
              state: TaskState.TASK_STATE_INPUT_REQUIRED,
              message: undefined,
              timestamp: now(),
            },
            artifacts: [],
            history: [ctx.userMessage],
            metadata: {},
          })
        );
        bus.finished();
        return Promise.resolve();
      }
      // The SDK's event types are its decoded protobuf forms; these literals fill what an echo
      // needs and leave the rest to the SDK's defaults.
      bus.publish(
        AgentEvent.task({
          id: ctx.taskId,
          contextId: ctx.contextId,
          status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() },
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
            name: 'reply',
            description: '',
            parts: [
              {
                content: { $case: 'text', value: `${replyPrefix}${said}` },
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
          status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now() },
        })
      );
      bus.finished();
      return Promise.resolve();
    },
    cancelTask: () => Promise.resolve(),
  };
}

export function startSdkEchoServer(opts: SdkEchoOptions = {}): Promise<SdkEchoServer> {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  if (opts.onRequest) {
    const onRequest = opts.onRequest;
    app.use((req, _res, next) => {
      onRequest(
        req.header('a2a-version'),
        (req.body as { params: Record<string, unknown> }).params
      );
      next();
    });
  }
  return new Promise((resolve) => {
    const server = app.listen(opts.port ?? 0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
      const card = {
        name: 'SDK Echo',
        description: 'a standard A2A 1.0 server (@a2a-js/sdk, in memory)',
        version: '1.0.0',
        supportedInterfaces: [
          { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
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
      const handler = new DefaultRequestHandler(
        card as never,
        new InMemoryTaskStore(),
        echoExecutor(opts.replyPrefix ?? 'echo: ', opts.askForInputWhen)
      );
      app.use(
        jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication })
      );
      resolve({
        url,
        server,
        card,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}

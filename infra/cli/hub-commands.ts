// The commands that work against a running hub over its public API, as one agent (issue 25):
// `send`, `tasks get|list|tail`, `queue show`. They need no database or NATS: the key says who
// sends, and the hub decides what that agent may see, as for any client.
import type { Command } from 'commander';
import { HubClient, type HubTask, type TaskState } from '../../sdk/index.js';
import { InvalidParamsError, UnauthenticatedError } from '../../runtime/errors/index.js';
import type { CliContext, CliIo } from './context.js';
import { printJson, printTable } from './output.js';

interface HubOpts {
  url: string;
  key?: string;
  json?: boolean;
}

const STATES = [
  'submitted',
  'working',
  'input-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
];

function clientOf(ctx: CliContext, opts: HubOpts): HubClient {
  const hub = ctx.hub;
  const apiKey = opts.key ?? hub?.defaultKey;
  if (apiKey === undefined || apiKey === '') {
    throw new UnauthenticatedError('this command needs an agent API key: BURROW_API_KEY or --key');
  }
  if (!/^https?:\/\//.test(opts.url)) {
    throw new InvalidParamsError('--url', `must be the hub's http(s) base URL, got ${opts.url}`);
  }
  return new HubClient({ url: opts.url, apiKey, ...(hub?.fetch ? { fetch: hub.fetch } : {}) });
}

/** The task's text: its artifacts' text parts, else the status message. */
function textOf(t: HubTask): string {
  const parts = (t.artifacts ?? []).flatMap((a) => a.parts);
  const texts = parts.flatMap((p) => ('text' in p && typeof p.text === 'string' ? [p.text] : []));
  if (texts.length > 0) return texts.join('\n');
  const m = t.status.message;
  return typeof m === 'string' ? m : '';
}

function firstMessage(t: HubTask): string {
  const msg = (t.history ?? [])[0];
  const p = msg?.parts.find((x) => 'text' in x);
  return p && 'text' in p && typeof p.text === 'string' ? p.text : '';
}

function printTask(io: CliIo, t: HubTask, json: boolean | undefined): void {
  if (json) return printJson(io, t);
  io.out(`${t.id}  ${t.status.state}  context ${t.contextId}`);
  const text = textOf(t);
  if (text) io.out(text);
}

function withHub(cmd: Command, ctx: CliContext): Command {
  return cmd
    .option(
      '--url <url>',
      'the hub base URL (BURROW_URL)',
      ctx.hub?.defaultUrl ?? 'http://127.0.0.1:8080'
    )
    .option('--key <apiKey>', "the agent's API key (prefer BURROW_API_KEY: argv is visible)")
    .option('--json', 'print JSON');
}

export function registerHubCommands(program: Command, ctx: CliContext): void {
  const { io } = ctx;
  withHub(
    program
      .command('send <agentId> <text...>')
      .description("send a text message as the key's agent; waits up to 60 s for the answer")
      .option('--no-wait', 'answer as soon as the hub has the task (submitted or queued)')
      .option('--context <contextId>', 'continue a conversation')
      .option('--ttl <seconds>', 'how long the message may queue while the recipient is offline'),
    ctx
  ).action(
    async (
      agentId: string,
      words: string[],
      opts: HubOpts & { wait: boolean; context?: string; ttl?: string }
    ) => {
      const ttl = opts.ttl === undefined ? undefined : Number(opts.ttl);
      if (ttl !== undefined && !(Number.isInteger(ttl) && ttl >= 0)) {
        throw new InvalidParamsError('--ttl', 'must be a whole number of seconds, 0 or more');
      }
      const task = await clientOf(ctx, opts).sendText(agentId, words.join(' '), {
        blocking: opts.wait,
        ...(opts.context ? { contextId: opts.context } : {}),
        ...(ttl !== undefined ? { ttlSeconds: ttl } : {}),
      });
      printTask(io, task, opts.json);
    }
  );

  const tasks = program.command('tasks').description("the key's agent's tasks, over the hub's API");
  withHub(tasks.command('get <taskId>').description('one task, with its answer'), ctx).action(
    async (taskId: string, opts: HubOpts) => {
      printTask(io, await clientOf(ctx, opts).getTask(taskId, { historyLength: 10 }), opts.json);
    }
  );
  withHub(
    tasks
      .command('list')
      .description('tasks the agent sent or received, newest first')
      .option('--status <state>', `only tasks in this state (${STATES.join(', ')})`)
      .option('--context <contextId>', 'only one conversation')
      .option('--limit <n>', '1..100', '20'),
    ctx
  ).action(async (opts: HubOpts & { status?: string; context?: string; limit: string }) => {
    const limit = Number(opts.limit);
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
      throw new InvalidParamsError('--limit', 'must be a whole number from 1 to 100');
    }
    if (opts.status !== undefined && !STATES.includes(opts.status)) {
      throw new InvalidParamsError('--status', `must be one of ${STATES.join(', ')}`);
    }
    const page = await clientOf(ctx, opts).listTasks({
      pageSize: limit,
      historyLength: 1,
      ...(opts.status ? { status: opts.status as TaskState } : {}),
      ...(opts.context ? { contextId: opts.context } : {}),
    });
    if (opts.json) return printJson(io, page);
    printTable(
      io,
      ['TASK', 'STATE', 'AGENT', 'UPDATED', 'FIRST MESSAGE'],
      page.tasks.map((t) => [
        t.id,
        t.status.state,
        String(t.metadata?.agentId ?? ''),
        t.status.timestamp ?? '',
        firstMessage(t).slice(0, 60),
      ])
    );
  });
  withHub(
    tasks.command('tail <taskId>').description("follow a task's updates until it settles"),
    ctx
  ).action(async (taskId: string, opts: HubOpts) => {
    for await (const e of clientOf(ctx, opts).subscribe(taskId)) {
      if (opts.json) {
        io.out(JSON.stringify(e));
        continue;
      }
      switch (e.kind) {
        case 'task':
          io.out(`${e.id}  ${e.status.state}`);
          break;
        case 'status-update':
          io.out(`${e.taskId}  ${e.status.state}${e.final ? '  (final)' : ''}`);
          break;
        case 'artifact-update': {
          const text = e.artifact.parts.flatMap((p) => ('text' in p ? [p.text] : [])).join('\n');
          io.out(`${e.taskId}  artifact${text ? `: ${text}` : ''}`);
          break;
        }
        case 'message':
          io.out(JSON.stringify(e));
          break;
        default: {
          const never: never = e;
          io.out(JSON.stringify(never));
        }
      }
    }
  });

  const queue = program.command('queue').description("the key's agent's waiting messages");
  withHub(
    queue
      .command('show')
      .description('messages sent to this agent that wait for it (queued while it was offline)'),
    ctx
  ).action(async (opts: HubOpts) => {
    const client = clientOf(ctx, opts);
    const me = await client.me();
    const waiting: HubTask[] = [];
    for await (const t of client.allTasks({
      status: 'submitted',
      pageSize: 100,
      historyLength: 1,
    })) {
      if (t.metadata?.agentId === me.agentId) waiting.push(t);
    }
    if (opts.json)
      return printJson(io, { agentId: me.agentId, queued: waiting.length, tasks: waiting });
    io.out(`${waiting.length} message(s) waiting for ${me.agentId ?? 'this key'}`);
    printTable(
      io,
      ['TASK', 'SINCE', 'FIRST MESSAGE'],
      waiting.map((t) => [t.id, t.status.timestamp ?? '', firstMessage(t).slice(0, 60)])
    );
  });
}

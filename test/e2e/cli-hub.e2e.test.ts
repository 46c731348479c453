// `burrow send`, `tasks get|list|tail` and `queue show` against a running hub over its public API
// (issue 25), as the real binary runs them: no database or NATS settings, only --url and a key;
// errors as JSON under --json.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { connectWsAgent } from '../support/ws-agent.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real `burrow` binary (through tsx), pointed at nothing but the hub's URL. */
function burrow(args: string[], key?: string): Promise<Run> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'infra/bin/burrow.ts', ...args, '--url', hub.url],
      {
        cwd: ROOT,
        // No database or NATS reachable: these commands must not need them.
        env: {
          ...process.env,
          DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
          NATS_URL: 'nats://127.0.0.1:9',
          BURROW_API_KEY: key ?? '',
        },
        timeout: 60_000,
      },
      (err, stdout, stderr) => {
        if (err === null) done({ code: 0, stdout, stderr });
        else if (typeof err.code === 'number') done({ code: err.code, stdout, stderr });
        else fail(new Error(`could not run burrow: ${err.message}`, { cause: err }));
      }
    );
  });
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db), silentLogger);
  await until(() => hub.partitions.ownedPartitions().length === 8, 30_000);
  const tenant = await createTenant(hub.sql, { name: 'Acme' });
  for (const name of ['alice', 'bob']) {
    const a = await createAgent(hub.sql, { tenantId: tenant.id, name });
    keys[name] = a.apiKey;
    ids[name] = a.agent.id;
  }
}, 60_000);

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('burrow against a running hub', () => {
  it('sends a message and prints the answer; tasks get shows the same task', async () => {
    const r = await burrow(
      ['send', 'agent-echo-official', 'ping', 'from', 'the', 'cli'],
      keys.alice
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [head, ...rest] = r.stdout.trim().split('\n');
    expect(head).toMatch(/^(\S+) {2}completed {2}context \S+$/);
    expect(rest.join('\n')).toContain('ping from the cli');
    const taskId = head!.split(' ')[0]!;
    const got = await burrow(['tasks', 'get', taskId, '--json'], keys.alice);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: taskId, status: { state: 'completed' } });
  });

  it('queues for an offline agent: queue show lists it for the recipient, tasks list for the sender', async () => {
    const sent = await burrow(
      ['send', ids.bob!, 'are', 'you', 'there?', '--no-wait', '--json'],
      keys.alice
    );
    expect(sent.code).toBe(0);
    const task = JSON.parse(sent.stdout) as { id: string; status: { state: string } };
    expect(task.status.state).toBe('submitted');

    const shown = await burrow(['queue', 'show'], keys.bob);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`1 message(s) waiting for ${ids.bob}`);
    expect(shown.stdout).toMatch(new RegExp(`${task.id}\\s+\\S+\\s+are you there\\?`));

    await until(async () => {
      const list = await burrow(['tasks', 'list', '--status', 'submitted', '--json'], keys.alice);
      return (JSON.parse(list.stdout) as { tasks: Array<{ id: string }> }).tasks.some(
        (t) => t.id === task.id
      );
    }, 15_000);

    // tail follows it while bob connects and answers.
    const tail = burrow(['tasks', 'tail', task.id], keys.alice);
    const bob = await connectWsAgent(hub.url, keys.bob);
    const frame = await bob.next('message', 15_000);
    bob.send({
      type: 'task_response',
      taskId: frame.taskId,
      status: { state: 'completed' },
      artifact: { parts: [{ kind: 'text', text: 'here now' }] },
    });
    const followed = await tail;
    await bob.close();
    expect(followed.code).toBe(0);
    expect(followed.stdout).toMatch(/completed/);
    const after = await burrow(['queue', 'show', '--json'], keys.bob);
    expect(JSON.parse(after.stdout)).toMatchObject({ agentId: ids.bob, queued: 0 });
  });

  it('refuses bad input naming the option, and prints hub errors as JSON under --json', async () => {
    const limit = await burrow(['tasks', 'list', '--limit', '500'], keys.alice);
    expect(limit.code).toBe(1);
    expect(limit.stderr).toMatch(/--limit: must be a whole number from 1 to 100/);
    const missing = await burrow(['tasks', 'get', 'task-does-not-exist', '--json'], keys.alice);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr)).toMatchObject({ error: { code: 'TASK_NOT_FOUND' } });
    const nokey = await burrow(['queue', 'show']);
    expect(nokey.code).toBe(1);
    expect(nokey.stderr).toMatch(/needs an agent API key: BURROW_API_KEY or --key/);
  });
});

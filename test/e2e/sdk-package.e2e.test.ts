// The SDK as agent builders get it: `npm pack` in sdk/ (its prepack builds sdk/dist), the tarball
// installed into a fresh project outside the repository, both examples copied there unchanged,
// typechecked against the installed package's types, and run against a real hub. An import of hub
// code, a missing file or dependency, or types that do not ship fails here as it would for a user.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../infra/db/index.js';
import { trackProcess } from '../support/cleanup.js';
import { freePorts } from '../support/nats-process.js';
import { startAgentHub, type AgentHub } from '../support/official-agents.js';
import { rpc, text } from '../support/rpc.js';
import { until } from '../support/test-hub.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const TSX = pathToFileURL(require.resolve('tsx')).href;
const TSC = require.resolve('typescript/bin/tsc');

interface TaskShape {
  status: { state: string };
  artifacts?: Array<{ parts: Array<{ text?: string }> }>;
}

const texts = (t: TaskShape) => (t.artifacts ?? []).map((a) => a.parts.map((p) => p.text ?? ''));

describe('the packed SDK, installed into a project of its own', () => {
  let dir: string;
  let packed: { name: string; filename: string; files: Array<{ path: string }> };
  let h: AgentHub;
  let tenantId: string;
  let alice: { id: string; key: string };
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'burrow-sdk-package-'));
    const out = join(dir, 'tarballs');
    mkdirSync(out);
    const pack = await run('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: join(ROOT, 'sdk'),
      maxBuffer: 16 * 1024 * 1024,
    });
    // npm prints the prepack build's output before the JSON.
    packed = (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as (typeof packed)[])[0]!;
    const project = join(dir, 'project');
    mkdirSync(join(project, 'examples'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'sdk-user', private: true, type: 'module' })
    );
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', join(out, packed.filename)],
      { cwd: project, maxBuffer: 16 * 1024 * 1024 }
    );
    for (const f of ['ws-agent.ts', 'http-agent.ts']) {
      copyFileSync(join(ROOT, 'examples', f), join(project, 'examples', f));
    }
    h = await startAgentHub();
    tenantId = await h.tenant('Acme');
    alice = await h.agent(tenantId, 'alice');
  }, 240_000);

  afterAll(async () => {
    for (const c of children) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGTERM');
        await new Promise((r) => c.once('exit', r));
      }
    }
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ships its build, types and readme, and nothing of the hub', () => {
    expect(packed.name).toBe('@burrow/sdk');
    const paths = packed.files.map((f) => f.path).sort();
    expect(paths).toContain('dist/index.js');
    expect(paths).toContain('dist/index.d.ts');
    expect(paths).toContain('README.md');
    for (const p of paths) expect(p).toMatch(/^(dist\/.+\.(js|d\.ts)|package\.json|README\.md)$/);
    expect(paths.filter((p) => p.endsWith('.test.js'))).toEqual([]);
  });

  it('typechecks both examples against the installed package', async () => {
    const project = join(dir, 'project');
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        include: ['examples'],
      })
    );
    const r = await run(process.execPath, [TSC, '-p', project], { cwd: project }).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout, failed: true })
    );
    expect(r.stdout).toBe('');
  }, 180_000);

  function start(file: string, env: Record<string, string>, readyLine: RegExp) {
    const child = spawn(process.execPath, ['--import', TSX, file], {
      cwd: join(dir, 'project'),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    trackProcess(child);
    children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    return until(() => readyLine.test(out), 30_000)
      .catch(() => {
        throw new Error(`${file} did not print ${readyLine}; output:\n${out}`);
      })
      .then(() => ({ output: () => out }));
  }

  async function send(agentId: string, body: string): Promise<TaskShape> {
    const r = await rpc<TaskShape>(h.url, alice.key, 'SendMessage', {
      message: text(body),
      configuration: { agentId, blocking: true },
    });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    return r.result!;
  }

  it('runs examples/ws-agent.ts from the installed package against the hub', async () => {
    const dave = await h.agent(tenantId, 'dave');
    await start('examples/ws-agent.ts', { HUB_URL: h.url, AGENT_KEY: dave.key }, /connected as/);
    expect(texts(await send(dave.id, 'good morning'))).toEqual([
      [`${alice.id} said: good morning`],
    ]);
    expect(texts(await send(dave.id, 'count'))).toEqual([['one', 'two', 'three']]);
    expect((await send(dave.id, ' ')).status.state).toBe('input-required');
  });

  it('runs examples/http-agent.ts from the installed package, registered with the hub', async () => {
    const [port] = await freePorts(1);
    const url = `http://127.0.0.1:${port}/a2a`;
    const created = await createAgent(h.hub.sql, { tenantId, name: 'example-http', url });
    const { output } = await start(
      'examples/http-agent.ts',
      { PORT: String(port), HUB_URL: h.url, WEBHOOK_SECRET: created.webhookSecret! },
      /HTTP agent on/
    );
    const t = await send(created.agent.id, 'quiet please');
    expect(t.status.state, output()).toBe('completed');
    expect(texts(t)).toEqual([[`QUIET PLEASE! (from ${alice.id})`]]);
  });
});

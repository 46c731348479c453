// infra/dev/services.sh, which `npm start`, `npm test` and .ci/run run first (issue 25): on ports
// where nothing answers it starts a nats-server with JetStream and a PostgreSQL cluster of its own
// under BURROW_SERVICES_DIR; run again, it leaves them alone; `stop` stops only what it started.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';

const run = promisify(execFile);

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

let dir: string | undefined;
let env: NodeJS.ProcessEnv = {};
const script = (action: string) => run('bash', ['infra/dev/services.sh', action], { env });

afterAll(async () => {
  if (dir) {
    await script('stop').catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});

describe('infra/dev/services.sh', () => {
  it('starts NATS with JetStream and PostgreSQL where nothing answers, then leaves them alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'burrow-services-'));
    // As root, PostgreSQL runs as the postgres user, which must reach its data directory.
    await chmod(dir, 0o755);
    const [natsPort, pgPort] = [await freePort(), await freePort()];
    env = {
      ...process.env,
      BURROW_SERVICES_DIR: dir,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/burrow`,
      TEST_DATABASE_BASE_URL: '',
    };
    const first = await script('start');
    expect(first.stderr).toContain(`starting nats-server with JetStream on 127.0.0.1:${natsPort}`);
    expect(first.stderr).toContain(`starting PostgreSQL on 127.0.0.1:${pgPort}`);

    const nc = await connect({ servers: `127.0.0.1:${natsPort}` });
    const jsm = await jetstreamManager(nc);
    expect((await jsm.getAccountInfo()).limits).toBeDefined();
    await nc.close();
    const sql = postgres(`postgres://postgres@127.0.0.1:${pgPort}/postgres`, { max: 1 });
    expect((await sql`select 1 as one`)[0]?.one).toBe(1);
    await sql.end();

    const again = await script('start');
    expect(again.stderr).toBe('');

    const stopped = await script('stop');
    expect(stopped.stderr).toContain('stopped our nats-server');
    expect(stopped.stderr).toContain('stopped our PostgreSQL');
    const status = await script('status');
    expect(status.stderr).toContain(`NATS does not answer at 127.0.0.1:${natsPort}`);
    expect(status.stderr).toContain(`PostgreSQL does not answer at 127.0.0.1:${pgPort}`);
  }, 90_000);

  it('says which setting to change for a remote URL that does not answer, and starts nothing', async () => {
    const r = await run('bash', ['infra/dev/services.sh', 'start'], {
      env: { ...process.env, NATS_URL: 'nats://192.0.2.1:4222' },
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in r ? r.code : 0).toBe(1);
    expect(r.stderr).toMatch(/NATS does not answer at nats:\/\/192\.0\.2\.1:4222 \(NATS_URL\)/);
  }, 30_000);
});

// Detecting `sync_interval` support by asking the real nats-server to check a config (-t). The
// server here is 2.9.10, which refuses the field; a plain JetStream config shows the probe can
// also answer yes.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { natsArgs, serverAccepts, supportsSyncAlways } from './nats.js';

const BIN = '/usr/sbin/nats-server';
const plan = { name: 'nats-1', port: 4000, monitorPort: 4020, routePort: 4010 };

describe.runIf(existsSync(BIN))('sync_interval detection', () => {
  it('accepts a config the server knows and refuses one with an unknown field', () => {
    expect(serverAccepts(BIN, 'jetstream {\n  max_file_store: 1GB\n}\n')).toBe(true);
    expect(serverAccepts(BIN, 'jetstream {\n  no_such_field: 1\n}\n')).toBe(false);
  });

  it('matches the server version: 2.10 and later support it, 2.9 does not', async () => {
    const { execFileSync } = await import('node:child_process');
    const version = execFileSync(BIN, ['--version'], { encoding: 'utf8' }).match(/v(\d+)\.(\d+)/);
    const atLeast210 = Number(version![1]) > 2 || Number(version![2]) >= 10;
    expect(supportsSyncAlways(BIN)).toBe(atLeast210);
  });
});

describe('natsArgs', () => {
  it('passes the config file first, so the flags override it', () => {
    const args = natsArgs(plan, [plan], 'c', '/tmp/x', '/tmp/x/nats.conf');
    expect(args.slice(0, 2)).toEqual(['-c', '/tmp/x/nats.conf']);
    expect(natsArgs(plan, [plan], 'c', '/tmp/x')).not.toContain('-c');
  });
});

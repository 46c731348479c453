// Request body limits (decisions.md §7): 1 MiB for every request, 10 MiB for messages to the pixel
// agent — and only as far as the NATS server's max_payload lets such a message through the hub.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer } from '../support/nats-server.js';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { rpc } from '../support/rpc.js';

let small: AgentHub; // NATS with its default 1 MB max_payload
let large: AgentHub; // NATS with max_payload 32 MB
let smallKey = '';
let largeKey = '';
let photo = '';

const pad = (bytes: number) => 'x'.repeat(bytes);

beforeAll(async () => {
  small = await startAgentHub();
  const conf = join(mkdtempSync(join(tmpdir(), 'limits-nats-')), 'nats.conf');
  writeFileSync(conf, 'max_payload: 33554432\n');
  large = await startAgentHub({}, await startNatsServer({ extraArgs: ['-c', conf] }));
  smallKey = (await small.agent(await small.tenant('Small'), 'sender')).key;
  largeKey = (await large.agent(await large.tenant('Large'), 'sender')).key;
  // Noise does not compress: a 1600×1200 JPEG at quality 100 is a few megabytes.
  const jpeg = await sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 100 })
    .toBuffer();
  photo = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
});

afterAll(async () => {
  await small?.close();
  await large?.close();
});

describe('request body limits', () => {
  it('refuses a body over 1 MiB for any agent but pixel, naming the limit', async () => {
    const r = await rpc(large.url, largeKey, 'SendMessage', {
      message: { role: 'user', parts: [{ kind: 'text', text: pad(2 * 1024 * 1024) }] },
      configuration: { agentId: 'echo', blocking: true },
    });
    expect(r.status).toBe(413);
    expect(r.error?.code).toBe(-32018);
    expect(r.error?.message).toMatch(/exceeds 1048576 bytes \(only messages to the pixel agent/);
  });

  it('takes a message of several megabytes to pixel when NATS allows it', async () => {
    const r = await ask(
      large.url,
      largeKey,
      'pixel',
      { operation: 'info', image: photo },
      {
        accept: ['application/json'],
      }
    );
    expect(r.error).toBeUndefined();
    expect(r.state, r.statusText).toBe('completed');
    expect(r.data).toMatchObject({ status: 'ok', width: 1600, height: 1200, format: 'jpeg' });
  });

  it('refuses a message to pixel above 10 MiB', async () => {
    const r = await rpc(large.url, largeKey, 'SendMessage', {
      message: { role: 'user', parts: [{ kind: 'text', text: pad(11 * 1024 * 1024) }] },
      configuration: { agentId: 'pixel', blocking: true },
    });
    expect(r.status).toBe(413);
    expect(r.error?.code).toBe(-32018);
  });

  it("says so when the NATS server's max_payload is too small for the message", async () => {
    const r = await ask(small.url, smallKey, 'pixel', { operation: 'info', image: photo });
    expect(r.error?.code).toBe(-32018);
    expect(r.error?.message).toMatch(/NATS max_payload \(1048576 bytes\)/);
  });
});

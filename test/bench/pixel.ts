// Issue 8's benchmark: resizes per second of a 2-megapixel JPEG through the hub, the pixel agent
// running with two pool members (AGENT_POOL_SIZE=2) and two image worker threads (PIXEL_THREADS=2).
// A hub process serves N concurrent HTTP clients sending blocking SendMessage requests through
// /a2a, each resizing the same 1732×1155 JPEG to 800 px wide; beside it, the same resize straight
// through sharp in this process, two at a time, gives the ceiling the image work itself sets.
import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { startNatsServer } from '../support/nats-server.js';
import { createTestDatabase } from '../support/postgres.js';
import { startHubProcess } from '../support/hub-process.js';
import { benchHubOptions } from './built-hub.js';
import { createAgent, createDb, createTenant } from '../../infra/db/index.js';
import { runLoad, sendMessageBody, type LoadResult } from './load.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const WIDTH = 1732;
const HEIGHT = 1155;

export interface PixelBenchReport {
  image: { width: number; height: number; bytes: number };
  concurrency: number;
  hub: LoadResult;
  /** sharp alone, in-process, two resizes at a time. */
  direct: { throughput: number; seconds: number };
}

/** A photo-like 2 MP JPEG: gradients and shapes with a little grain, at quality 80. */
export async function twoMegapixelJpeg(): Promise<Buffer> {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">` +
      `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4a7ec8"/>` +
      `<stop offset="1" stop-color="#f2c38a"/></linearGradient></defs>` +
      `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#sky)"/>` +
      `<circle cx="1300" cy="300" r="120" fill="#fff3c4"/>` +
      `<path d="M0 900 L400 600 L800 850 L1200 550 L${WIDTH} 800 L${WIDTH} ${HEIGHT} L0 ${HEIGHT}Z" fill="#2f5d3a"/>` +
      `</svg>`
  );
  const grain = await sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .png()
    .toBuffer();
  return sharp(svg)
    .composite([{ input: grain, blend: 'overlay' }])
    .jpeg({ quality: 80 })
    .toBuffer();
}

export async function pixelBench(): Promise<PixelBenchReport> {
  const jpeg = await twoMegapixelJpeg();
  const request = {
    operation: 'resize',
    image: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
    width: 800,
    fit: 'contain',
    format: 'jpeg',
  };
  const text = JSON.stringify(request);

  const direct = await directSharp(jpeg, 5);

  const nats = await startNatsServer();
  const db = await createTestDatabase('burrow_bench');
  const hub = await startHubProcess({
    ...benchHubOptions(),
    env: {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      AGENT_POOL_SIZE: '2',
      PIXEL_THREADS: '2',
    },
  });
  const sql = createDb(db.url, { max: 2 });
  try {
    const tenant = await createTenant(sql, { name: 'Bench' });
    const sender = await createAgent(sql, { tenantId: tenant.id, name: 'sender' });
    const result = await runLoad({
      url: `${hub.url}/a2a`,
      concurrency: CONCURRENCY,
      warmupSeconds: WARMUP,
      seconds: SECONDS,
      headers: { authorization: `Bearer ${sender.apiKey}`, 'a2a-version': '1.0' },
      body: (i) =>
        sendMessageBody(i, 'agent-pixel-official', text, {
          blocking: true,
          acceptedOutputModes: ['application/json'],
        }),
      ok: (status, body) =>
        status === 200 && body.includes('"state":"completed"') && body.includes('\\"width\\":800'),
    });
    return {
      image: { width: WIDTH, height: HEIGHT, bytes: jpeg.length },
      concurrency: CONCURRENCY,
      hub: result,
      direct,
    };
  } finally {
    await sql.end({ timeout: 2 });
    hub.kill('SIGTERM');
    await hub.exited;
    await nats.close();
    await db.drop();
  }
}

async function directSharp(jpeg: Buffer, seconds: number) {
  let done = 0;
  let stop = false;
  const loop = async () => {
    while (!stop) {
      await sharp(jpeg).resize({ width: 800, fit: 'inside' }).jpeg().toBuffer();
      done++;
    }
  };
  const t0 = performance.now();
  const loops = [loop(), loop()];
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  await Promise.all(loops);
  const elapsed = (performance.now() - t0) / 1000;
  return { throughput: done / elapsed, seconds: elapsed };
}

/** Run, print the table, save test/bench/results/pixel.json. */
export async function pixelReport(): Promise<void> {
  const r = await pixelBench();
  const f = (n: number, d = 1) => n.toFixed(d);
  const h = r.hub;
  process.stdout.write(
    [
      `\npixel: resize a ${r.image.width}×${r.image.height} JPEG (${f(r.image.bytes / 1024, 0)} KB) to 800 px wide, ` +
        `blocking SendMessage through /a2a, ${r.concurrency} concurrent clients, 2 pool members, 2 image threads (${cpus().length} cores)`,
      '| target | resizes/s | p50 ms | p90 ms | p99 ms | max ms | errors |',
      `| Burrow hub → pixel | ${f(h.throughput)} | ${f(h.p50)} | ${f(h.p90)} | ${f(h.p99)} | ${f(h.max)} | ${h.errors} |`,
      `| sharp in-process, 2 at a time (ceiling) | ${f(r.direct.throughput)} | | | | | |`,
    ].join('\n') + '\n'
  );
  const out = resolve(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    resolve(out, 'pixel.json'),
    JSON.stringify({ at: new Date().toISOString(), ...r }, null, 2)
  );
}

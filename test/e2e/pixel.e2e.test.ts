// The pixel agent through the running hub: real images of every input format this build of sharp
// decodes (generated here with sharp), every operation with its output decoded again by sharp to
// check dimensions and format, resize fits, thumbnail presets, placeholder styles, info, adjust,
// compress defaults, the text reply's file part, and the errors (HEIC, too big, not an image, bad
// data URI, out-of-range options, unknown operation).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, type Answer } from '../support/official-agents.js';
import { rpc } from '../support/rpc.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

interface Reply {
  status: string;
  operation: string;
  width: number;
  height: number;
  format: string;
  size: number;
  image: string;
}

const JSON_OUT = { accept: ['application/json'] };
const W = 64;
const H = 48;

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let key: string;
const inputs: Record<string, Buffer> = {};
let photo: Buffer;

// The 10 MB image limit only reaches the agent when the gateway's body limit and NATS's payload
// limit let a 14 MB request through, so this hub raises both (defaults: 1 MB each). A message may
// use a third of max_payload (docs/OPERATIONS.md "Message size"), so 14 MB needs 48 MB.
beforeAll(async () => {
  // nats-server takes max_payload from a config file only.
  const natsConf = join(mkdtempSync(join(tmpdir(), 'pixel-nats-')), 'nats.conf');
  writeFileSync(natsConf, 'max_payload: 50331648\n');
  nats = await startNatsServer({ extraArgs: ['-c', natsConf] });
  db = await createTestDatabase();
  hub = await startHub(
    testHubConfig(nats, db, {
      RATE_LIMIT_PER_MINUTE: '100000',
      BODY_LIMIT_BYTES: String(32 * 1024 * 1024),
      PIXEL_THREADS: '2',
    }),
    silentLogger
  );
  await until(() => hub.partitions.ownedPartitions().length === hub.config.partitions);
  const tenant = await createTenant(hub.sql, { name: 'pixel' });
  key = (await createAgent(hub.sql, { tenantId: tenant.id, name: 'artist' })).apiKey;

  // A picture with detail (so compression settings show) in every readable format.
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">` +
      `<defs><linearGradient id="g"><stop offset="0" stop-color="#e0402a"/><stop offset="1" stop-color="#2a60e0"/></linearGradient></defs>` +
      `<rect width="${W}" height="${H}" fill="url(#g)"/><circle cx="20" cy="24" r="14" fill="#f5d020"/></svg>`
  );
  const raster = await sharp(svg).png().toBuffer();
  inputs.svg = svg;
  inputs.png = raster;
  inputs.jpeg = await sharp(raster).jpeg().toBuffer();
  inputs.webp = await sharp(raster).webp().toBuffer();
  inputs.avif = await sharp(raster).avif().toBuffer();
  inputs.gif = await sharp(raster).gif().toBuffer();
  inputs.tiff = await sharp(raster).tiff().toBuffer();
  // 400×300 with detail, for resizing.
  photo = await sharp(svg).resize(400, 300, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer();
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

const MIME: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
};

function uri(bytes: Buffer, type = 'image/png'): string {
  return `data:${type};base64,${bytes.toString('base64')}`;
}

function pixel(body: Record<string, unknown> | string, json = true): Promise<Answer> {
  return ask(hub.url, key, 'pixel', body, json ? JSON_OUT : {});
}

async function ok(body: Record<string, unknown>): Promise<Reply> {
  const a = await pixel(body);
  expect(a.statusText).toBe('');
  expect(a.state).toBe('completed');
  return a.data as Reply;
}

async function failure(body: Record<string, unknown> | string): Promise<string> {
  const a = await pixel(body);
  expect(a.state).toBe('failed');
  return a.statusText;
}

/** The reply's image decoded by sharp, after checking the data URI's type and the reply's fields. */
async function decoded(r: Reply) {
  expect(r.status).toBe('ok');
  const m = /^data:([^;]+);base64,(.+)$/.exec(r.image);
  expect(m).not.toBeNull();
  const bytes = Buffer.from(m![2]!, 'base64');
  expect(bytes.length).toBe(r.size);
  const meta = await sharp(bytes).metadata();
  const format = meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format;
  expect(format).toBe(r.format);
  expect(m![1]).toBe(MIME[r.format]);
  expect([meta.width, meta.height]).toEqual([r.width, r.height]);
  return { meta, bytes };
}

describe('pixel: every input format, every output format', () => {
  for (const input of ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff', 'svg']) {
    it(`converts ${input} to jpeg, png, webp and avif`, async () => {
      for (const format of ['jpeg', 'png', 'webp', 'avif']) {
        const r = await ok({
          operation: 'convert',
          image: uri(inputs[input]!, MIME[input]),
          format,
        });
        expect(r.format).toBe(format);
        expect([r.width, r.height]).toEqual([W, H]);
        await decoded(r);
      }
    });

    it(`describes ${input} with info`, async () => {
      const r = (await ok({
        operation: 'info',
        image: uri(inputs[input]!, MIME[input]),
      })) as Reply & Record<string, unknown>;
      expect(r).toMatchObject({
        status: 'ok',
        width: W,
        height: H,
        format: input,
        size: inputs[input]!.length,
      });
      expect(r.image).toBeUndefined();
      expect(typeof r.channels).toBe('number');
    });
  }

  it('reads a percent-encoded SVG data URI and "jpg" as JPEG', async () => {
    const r = await ok({
      operation: 'convert',
      image: `data:image/svg+xml,${encodeURIComponent(inputs.svg!.toString('utf8'))}`,
      format: 'JPG',
    });
    expect(r.format).toBe('jpeg');
    await decoded(r);
  });

  it('refuses HEIC with a message that says this build cannot decode it', async () => {
    // An ftyp box with the HEIC brand, then an (empty) meta box: enough to be recognised.
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from('ftypheic'),
      Buffer.from([0, 0, 0, 0]),
      Buffer.from('mif1heic'),
      Buffer.from([0, 0, 0, 8]),
      Buffer.from('meta'),
    ]);
    const text = await failure({
      operation: 'convert',
      image: uri(heic, 'image/heic'),
      format: 'jpeg',
    });
    expect(text).toMatch(/HEIC/);
    expect(text).toMatch(/not supported by this build/);
    expect(await failure({ operation: 'info', image: uri(heic, 'image/heic') })).toMatch(
      /not supported by this build/
    );
  });
});

describe('pixel: resize', () => {
  const cases: Array<[string, Record<string, unknown>, number, number]> = [
    ['contain fits inside the box', { width: 200, height: 200, fit: 'contain' }, 200, 150],
    ['contain may enlarge', { width: 800, height: 800, fit: 'contain' }, 800, 600],
    ['cover fills the box', { width: 200, height: 200, fit: 'cover' }, 200, 200],
    ['cover is the default', { width: 120, height: 90 }, 120, 90],
    ['crop fills the box', { width: 200, height: 200, fit: 'crop' }, 200, 200],
    ['crop never enlarges', { width: 800, height: 100, fit: 'crop' }, 400, 100],
    ['scale-down shrinks', { width: 200, height: 200, fit: 'scale-down' }, 200, 150],
    ['scale-down never enlarges', { width: 800, height: 800, fit: 'scale-down' }, 400, 300],
    ['pad pads to the box', { width: 200, height: 200, fit: 'pad' }, 200, 200],
    ['width alone keeps the aspect ratio', { width: 200 }, 200, 150],
    ['height alone keeps the aspect ratio', { height: 150 }, 200, 150],
  ];
  for (const [name, options, w, h] of cases) {
    it(name, async () => {
      const r = await ok({ operation: 'resize', image: uri(photo, 'image/jpeg'), ...options });
      expect([r.width, r.height]).toEqual([w, h]);
      expect(r.format).toBe('jpeg');
      await decoded(r);
    });
  }

  it('pads with transparency in PNG and with the background asked for', async () => {
    const clear = await ok({
      operation: 'resize',
      image: uri(photo, 'image/jpeg'),
      width: 200,
      height: 200,
      fit: 'pad',
      format: 'png',
    });
    const { bytes } = await decoded(clear);
    const corner = await sharp(bytes)
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .raw()
      .toBuffer();
    expect(corner[3]).toBe(0);
    const red = await ok({
      operation: 'resize',
      image: uri(photo, 'image/jpeg'),
      width: 200,
      height: 200,
      fit: 'pad',
      background: '#ff0000',
      format: 'png',
    });
    const px = await sharp((await decoded(red)).bytes)
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .raw()
      .toBuffer();
    expect([px[0], px[1], px[2]]).toEqual([255, 0, 0]);
  });

  it('writes the format asked for', async () => {
    const r = await ok({
      operation: 'resize',
      image: uri(photo, 'image/jpeg'),
      width: 100,
      format: 'avif',
    });
    expect(r.format).toBe('avif');
    await decoded(r);
  });

  it('answers in text with the image as a file part when JSON is not asked for', async () => {
    const a = await pixel(
      { operation: 'resize', image: uri(photo, 'image/jpeg'), width: 300, format: 'webp' },
      false
    );
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(/resized to 300×225 webp/);
    const artifacts = a.task.artifacts as Array<{ parts: Array<Record<string, string>> }>;
    const file = artifacts.flatMap((x) => x.parts).find((p) => p.kind === 'file');
    expect(file?.mimeType).toBe('image/webp');
    const meta = await sharp(Buffer.from(file!.data!, 'base64')).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 300, 225]);
  });
});

describe('pixel: thumbnail, compress, adjust', () => {
  for (const [size, px] of Object.entries({ xs: 48, sm: 150, md: 300, lg: 600, xl: 1200 })) {
    it(`thumbnail ${size} is ${px}×${px}`, async () => {
      const r = await ok({ operation: 'thumbnail', image: uri(photo, 'image/jpeg'), size });
      expect([r.width, r.height]).toEqual([px, px]);
      await decoded(r);
    });
  }

  it('thumbnail defaults to sm and keeps the aspect ratio with fit contain', async () => {
    const r = await ok({
      operation: 'thumbnail',
      image: uri(photo, 'image/jpeg'),
      fit: 'contain',
      format: 'webp',
    });
    expect([r.width, r.height, r.format]).toEqual([150, 113, 'webp']);
    await decoded(r);
  });

  it('compress defaults to WebP at quality 75', async () => {
    const image = uri(photo, 'image/jpeg');
    const byDefault = await ok({ operation: 'compress', image });
    expect(byDefault.format).toBe('webp');
    await decoded(byDefault);
    const at75 = await ok({ operation: 'compress', image, quality: 75, format: 'webp' });
    const at20 = await ok({ operation: 'compress', image, quality: 20, format: 'webp' });
    expect(byDefault.image).toBe(at75.image);
    expect(at20.size).toBeLessThan(at75.size);
    const jpeg = await ok({ operation: 'compress', image, quality: 40, format: 'jpeg' });
    expect(jpeg.size).toBeLessThan(photo.length);
    await decoded(jpeg);
    const png = await ok({
      operation: 'compress',
      image: uri(inputs.png!),
      quality: 50,
      format: 'png',
    });
    expect((await decoded(png)).meta.isPalette).toBe(true);
  });

  it('adjust: rotate 90 and 270 swap the dimensions, 180 keeps them', async () => {
    const image = uri(photo, 'image/jpeg');
    for (const [rotate, dims] of [
      [90, [300, 400]],
      [270, [300, 400]],
      [180, [400, 300]],
    ] as const) {
      const r = await ok({ operation: 'adjust', image, rotate });
      expect([r.width, r.height]).toEqual(dims);
      await decoded(r);
    }
  });

  it('adjust: grayscale yields one channel (PNG), or equal channels (WebP)', async () => {
    const image = uri(photo, 'image/jpeg');
    const png = await ok({ operation: 'adjust', image, grayscale: true, format: 'png' });
    const { meta } = await decoded(png);
    expect(meta.channels).toBe(1);
    expect(meta.space).toBe('b-w');
    const webp = await ok({ operation: 'adjust', image, grayscale: 'true', format: 'webp' });
    const stats = await sharp((await decoded(webp)).bytes).stats();
    const [r, g, b] = stats.channels;
    expect(Math.abs(r!.mean - g!.mean)).toBeLessThan(1);
    expect(Math.abs(g!.mean - b!.mean)).toBeLessThan(1);
  });

  it('adjust: blur, sharpen, brightness and contrast change the pixels', async () => {
    const image = uri(photo, 'image/jpeg');
    const base = await sharp(photo).stats();
    const blurred = await ok({ operation: 'adjust', image, blur: 8, format: 'png' });
    const bs = await sharp((await decoded(blurred)).bytes).stats();
    expect(bs.sharpness).toBeLessThan(base.sharpness);
    const sharpened = await ok({ operation: 'adjust', image, sharpen: 2, format: 'png' });
    expect((await sharp((await decoded(sharpened)).bytes).stats()).sharpness).toBeGreaterThan(
      base.sharpness
    );
    const bright = await ok({ operation: 'adjust', image, brightness: 1.5, format: 'png' });
    const brs = await sharp((await decoded(bright)).bytes).stats();
    expect(brs.channels[0]!.mean).toBeGreaterThan(base.channels[0]!.mean);
    const flat = await ok({ operation: 'adjust', image, contrast: 0.3, format: 'png' });
    const fs = await sharp((await decoded(flat)).bytes).stats();
    expect(fs.channels[2]!.stdev).toBeLessThan(base.channels[2]!.stdev);
  });
});

describe('pixel: placeholder', () => {
  for (const style of ['solid', 'crossed', 'framed', 'dimensions', 'gradient', 'noise']) {
    it(`${style} is an SVG of the size asked for`, async () => {
      const r = await ok({
        operation: 'placeholder',
        width: 320,
        height: 180,
        style,
        color: '#334155',
        background: 'lightgray',
      });
      expect([r.format, r.width, r.height]).toEqual(['svg', 320, 180]);
      const m = /^data:image\/svg\+xml;base64,(.+)$/.exec(r.image);
      const svg = Buffer.from(m![1]!, 'base64').toString('utf8');
      expect(Buffer.byteLength(svg)).toBe(r.size);
      expect(svg).toMatch(/^<svg [^>]*width="320" height="180"/);
      // A valid SVG: librsvg renders it at that size.
      const meta = await sharp(Buffer.from(svg)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['svg', 320, 180]);
    });
  }

  it('labels the dimensions style with W×H, or escaped text', async () => {
    const a = await ok({ operation: 'placeholder', width: 640, height: 360 });
    expect(Buffer.from(a.image.split(',')[1]!, 'base64').toString()).toContain('640×360');
    const b = await ok({ operation: 'placeholder', text: '<hero & image>' });
    const svg = Buffer.from(b.image.split(',')[1]!, 'base64').toString();
    expect(svg).toContain('&#60;hero &#38; image&#62;');
    expect([b.width, b.height]).toEqual([300, 200]);
  });
});

describe('pixel: errors', () => {
  it('an unknown or missing operation lists the valid ones', async () => {
    expect(await failure({ operation: 'sepia', image: uri(inputs.png!) })).toMatch(
      /unknown operation "sepia".*resize, compress, convert, thumbnail, placeholder, info, adjust/
    );
    expect(await failure({ image: uri(inputs.png!) })).toMatch(/add "operation"/);
  });

  it('plain text is answered with help, or refused with it', async () => {
    const help = await pixel('help', false);
    expect(help.state).toBe('completed');
    expect(help.text).toMatch(/resize.*fit/);
    expect(await failure('make it smaller please')).toMatch(/JSON text with "operation"/);
  });

  it('not an image, bad data URIs, bad base64', async () => {
    expect(
      await failure({
        operation: 'info',
        image: uri(Buffer.from('hello, this is text'), 'image/png'),
      })
    ).toMatch(/not an image pixel can read/);
    expect(await failure({ operation: 'info', image: 'iVBORw0KGgo=' })).toMatch(
      /`image` must be a data URI/
    );
    expect(await failure({ operation: 'info', image: 'data:text/plain;base64,aGVsbG8=' })).toMatch(
      /must be an image data URI; it says text\/plain/
    );
    expect(
      await failure({ operation: 'info', image: 'data:image/png;base64,@@@not base64' })
    ).toMatch(/not valid base64/);
    expect(await failure({ operation: 'info' })).toMatch(/`image`/);
    const truncated = inputs.jpeg!.subarray(0, inputs.jpeg!.length / 2);
    expect(
      await failure({ operation: 'convert', image: uri(truncated, 'image/jpeg'), format: 'png' })
    ).toMatch(/could not be processed/);
  });

  it('options out of range name the field', async () => {
    const image = uri(photo, 'image/jpeg');
    expect(await failure({ operation: 'adjust', image, blur: 300 })).toMatch(/`blur`.*1 to 250/);
    expect(await failure({ operation: 'adjust', image, blur: 0 })).toMatch(/`blur`/);
    expect(await failure({ operation: 'adjust', image, rotate: 45 })).toMatch(
      /`rotate`.*90, 180 or 270/
    );
    expect(await failure({ operation: 'adjust', image })).toMatch(/say what to adjust/);
    expect(await failure({ operation: 'resize', image, width: 0 })).toMatch(/`width`/);
    expect(await failure({ operation: 'resize', image, width: 100000 })).toMatch(/`width`.*8192/);
    expect(await failure({ operation: 'resize', image })).toMatch(/width, height or both/);
    expect(await failure({ operation: 'resize', image, width: 10, fit: 'stretch' })).toMatch(
      /`fit`/
    );
    expect(await failure({ operation: 'compress', image, quality: 101 })).toMatch(/`quality`/);
    expect(await failure({ operation: 'convert', image, format: 'gif' })).toMatch(
      /`format`.*jpeg, png, webp, avif/
    );
    expect(await failure({ operation: 'convert', image })).toMatch(/`format`.*required/);
    expect(await failure({ operation: 'thumbnail', image, size: 'huge' })).toMatch(/`size`/);
    expect(await failure({ operation: 'placeholder', style: 'zigzag' })).toMatch(/`style`/);
    expect(await failure({ operation: 'placeholder', color: '"/><script>' })).toMatch(
      /`color`.*CSS colour/
    );
    expect(
      await failure({ operation: 'resize', image, width: 10, fit: 'pad', background: 'notacolour' })
    ).toMatch(/`background`/);
  });

  it('refuses an image over 10 MB, saying how big it is', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1000, 7);
    const text = await failure({ operation: 'info', image: uri(big, 'image/png') });
    expect(text).toMatch(/`image` is 10\.0 MB \(10,486,760 bytes\); the limit is 10\.0 MB/);
  });
});

describe('pixel: image modes in its card and file parts (issue 20 point 5)', () => {
  /** A blocking SendMessage to pixel whose parts are `parts`. */
  async function send(parts: unknown[], accept?: string[]) {
    const r = await rpc(hub.url, key, 'SendMessage', {
      message: { role: 'user', parts },
      configuration: {
        agentId: 'pixel',
        blocking: true,
        ...(accept ? { acceptedOutputModes: accept } : {}),
      },
    });
    return r as {
      error?: { code: number };
      result?: {
        status: { state: string };
        artifacts?: Array<{ parts: Array<{ kind: string; mimeType?: string; data?: string }> }>;
      };
    };
  }
  const files = (r: Awaited<ReturnType<typeof send>>) =>
    (r.result?.artifacts ?? []).flatMap((a) => a.parts).filter((p) => p.kind === 'file');

  it('is found by the image types it takes and gives', async () => {
    for (const mode of ['image/png', 'image/avif', 'image/gif', 'image/*']) {
      const res = await fetch(`${hub.url}/api/discover/agents?contentMode=${mode}`);
      const body = (await res.json()) as { agents: Array<{ id: string }> };
      expect(
        body.agents.map((a) => a.id),
        mode
      ).toContain('agent-pixel-official');
    }
    const card = (await (
      await fetch(`${hub.url}/agents/agent-pixel-official/.well-known/agent-card.json`)
    ).json()) as { defaultOutputModes?: string[] };
    expect(card.defaultOutputModes).toEqual(expect.arrayContaining(['image/png', 'image/webp']));
  });

  it('accepts acceptedOutputModes ["image/png"] and answers the image as a png file part', async () => {
    const r = await send(
      [
        {
          kind: 'text',
          text: JSON.stringify({
            operation: 'convert',
            image: uri(inputs.jpeg!, MIME.jpeg),
            format: 'png',
          }),
        },
      ],
      ['image/png']
    );
    expect(r.error).toBeUndefined();
    expect(r.result?.status.state).toBe('completed');
    const [file] = files(r);
    expect(file?.mimeType).toBe('image/png');
    expect((await sharp(Buffer.from(file!.data!, 'base64')).metadata()).format).toBe('png');
  });

  it('takes the image as a file part, with the operation as JSON or as a bare name', async () => {
    const image = {
      kind: 'file',
      mimeType: 'image/gif',
      name: 'in.gif',
      data: inputs.gif!.toString('base64'),
    };
    const converted = await send([
      { kind: 'text', text: JSON.stringify({ operation: 'convert', format: 'webp' }) },
      image,
    ]);
    expect(converted.result?.status.state).toBe('completed');
    expect(files(converted)[0]?.mimeType).toBe('image/webp');
    const info = await send([image], ['application/json']);
    expect(info.result?.status.state).toBe('completed');
    const data = (info.result?.artifacts ?? [])
      .flatMap((a) => a.parts)
      .find((p) => p.kind === 'data');
    expect(JSON.parse(data!.data!)).toMatchObject({ operation: 'info', format: 'gif', width: W });
    const thumb = await send([{ kind: 'text', text: 'thumbnail' }, image]);
    expect(thumb.result?.status.state).toBe('completed');
    expect(files(thumb)).toHaveLength(1);
  });
});

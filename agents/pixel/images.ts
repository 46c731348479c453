// The image work itself, run inside pixel's worker threads (worker.ts): decode the data URI's
// payload, refuse what this build cannot read, run one sharp pipeline, encode the result as
// base64. Callers' mistakes come back as { ok: false, error } with a message for them.
import sharp, { type FitEnum, type Metadata, type Sharp } from 'sharp';
import { HEIC_UNSUPPORTED, heifKind } from './sniff.js';
import {
  MAX_INPUT_BYTES,
  MAX_INPUT_PIXELS,
  MIME_TYPES,
  OUTPUT_FORMATS,
  THUMBNAIL_SIZES,
  tooBigMessage,
  type Fit,
  type ImageJob,
  type ImageOutcome,
  type ImageSource,
  type OutputFormat,
} from './model.js';

/** A caller's mistake found in the worker: becomes { ok: false }. */
class InputError extends Error {}

export async function runImageJob(job: ImageJob): Promise<ImageOutcome> {
  try {
    return await run(job);
  } catch (err) {
    if (err instanceof InputError) return { ok: false, error: err.message };
    // sharp's errors are about the input (unreadable, truncated, a colour it cannot parse).
    return { ok: false, error: sharpMessage(err) };
  }
}

async function run(job: ImageJob): Promise<ImageOutcome> {
  const bytes = decode(job.source);
  if (heifKind(bytes) === 'heic') throw new InputError(HEIC_UNSUPPORTED);
  const open = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  const meta = await open().metadata();
  const inputFormat = formatOf(meta);

  if (job.operation === 'info') {
    return {
      ok: true,
      width: meta.autoOrient.width,
      height: meta.autoOrient.height,
      format: inputFormat,
      size: bytes.length,
      inputFormat,
      details: {
        channels: meta.channels,
        space: meta.space,
        hasAlpha: meta.hasAlpha,
        pages: meta.pages ?? 1,
        ...(meta.orientation !== undefined ? { orientation: meta.orientation } : {}),
        ...(meta.density !== undefined ? { density: meta.density } : {}),
      },
    };
  }

  let p = open().autoOrient();
  let format: OutputFormat = defaultFormat(inputFormat);
  let quality: number | undefined;
  switch (job.operation) {
    case 'resize':
      p = resize(p, meta, job.width, job.height, job.fit, job.background);
      format = job.format ?? format;
      quality = job.quality;
      break;
    case 'thumbnail': {
      const px = THUMBNAIL_SIZES[job.size]!;
      p = resize(p, meta, px, px, job.fit, job.background);
      format = job.format ?? format;
      quality = job.quality;
      break;
    }
    case 'compress':
    case 'convert':
      format = job.format;
      quality = job.quality;
      break;
    case 'adjust':
      p = adjust(p, job);
      format = job.format ?? format;
      quality = job.quality;
      break;
  }
  // sharp's grayscale keeps three equal channels unless told otherwise; JPEG and PNG can hold one.
  if (job.operation === 'adjust' && job.grayscale && (format === 'jpeg' || format === 'png')) {
    p = p.toColourspace('b-w');
  }
  const { data, info } = await encode(p, format, quality).toBuffer({ resolveWithObject: true });
  return {
    ok: true,
    width: info.width,
    height: info.height,
    format,
    size: data.length,
    base64: data.toString('base64'),
    mimeType: MIME_TYPES[format]!,
    inputFormat,
  };
}

/** The payload's bytes, checked for size and encoding. */
export function decode(source: ImageSource): Buffer {
  let bytes: Buffer;
  if (source.base64) {
    const text = /\s/.test(source.payload) ? source.payload.replace(/\s+/g, '') : source.payload;
    // Buffer.from skips characters it does not know; a caller's typo must not pass as an image.
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) {
      throw new InputError('`image` is not valid base64 after "base64,"');
    }
    bytes = Buffer.from(text, 'base64');
  } else {
    try {
      bytes = Buffer.from(decodeURIComponent(source.payload), 'utf8');
    } catch {
      throw new InputError('`image` is not a valid percent-encoded data URI');
    }
  }
  if (bytes.length > MAX_INPUT_BYTES) throw new InputError(tooBigMessage(bytes.length));
  if (bytes.length === 0) throw new InputError('`image` is empty');
  return bytes;
}

/** sharp's own name, except AV1-coded HEIF, which is AVIF to everyone else. */
function formatOf(meta: Metadata): string {
  if (meta.format === 'heif') return meta.compression === 'av1' ? 'avif' : 'heif';
  return meta.format;
}

/** Keep the input's format when pixel can write it; otherwise PNG (lossless, keeps alpha). */
function defaultFormat(input: string): OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(input) ? (input as OutputFormat) : 'png';
}

/**
 * The fits, after Cloudflare Images' names: contain = fit inside the box (keeps the aspect
 * ratio, may enlarge); scale-down = the same but never enlarges; cover = fill the box exactly,
 * cropping the centre; crop = cover, but never enlarges (the box shrinks to the image where the
 * image is smaller); pad = fit inside, then pad to the exact box with `background`.
 */
function resize(
  p: Sharp,
  meta: Metadata,
  width: number | undefined,
  height: number | undefined,
  fit: Fit,
  background: string | undefined
): Sharp {
  const sharpFit: Record<Fit, keyof FitEnum> = {
    contain: 'inside',
    'scale-down': 'inside',
    cover: 'cover',
    crop: 'cover',
    pad: 'contain',
  };
  let w = width;
  let h = height;
  if (fit === 'crop') {
    if (w !== undefined) w = Math.min(w, meta.autoOrient.width);
    if (h !== undefined) h = Math.min(h, meta.autoOrient.height);
  }
  return p.resize({
    ...(w !== undefined ? { width: w } : {}),
    ...(h !== undefined ? { height: h } : {}),
    fit: sharpFit[fit],
    position: 'centre',
    withoutEnlargement: fit === 'scale-down' || fit === 'crop',
    // Transparent where the output keeps alpha; JPEG drops it, leaving white.
    background: background ?? { r: 255, g: 255, b: 255, alpha: 0 },
  });
}

function adjust(p: Sharp, o: Extract<ImageJob, { operation: 'adjust' }>): Sharp {
  if (o.rotate !== undefined) p = p.rotate(o.rotate);
  if (o.brightness !== undefined) p = p.modulate({ brightness: o.brightness });
  // Contrast around mid-grey: out = c·in + 128·(1 − c).
  if (o.contrast !== undefined) p = p.linear(o.contrast, 128 * (1 - o.contrast));
  if (o.grayscale) p = p.grayscale();
  if (o.blur !== undefined) p = p.blur(o.blur);
  if (o.sharpen === true) p = p.sharpen();
  else if (typeof o.sharpen === 'number') p = p.sharpen({ sigma: o.sharpen });
  return p;
}

/** Compression quality: the caller's, else each format's usual default. */
function encode(p: Sharp, format: OutputFormat, quality: number | undefined): Sharp {
  switch (format) {
    case 'jpeg':
      return p.jpeg({ quality: quality ?? 80 });
    case 'webp':
      return p.webp({ quality: quality ?? 80 });
    case 'avif':
      return p.avif({ quality: quality ?? 50 });
    case 'png':
      // PNG is lossless; a quality below 100 means palette quantisation (libimagequant).
      return quality !== undefined && quality < 100
        ? p.png({ palette: true, quality, compressionLevel: 9 })
        : p.png();
  }
}

function sharpMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  if (/unsupported image format/i.test(m)) {
    return (
      '`image` is not an image pixel can read: send JPEG, PNG, WebP, AVIF, GIF, TIFF or SVG ' +
      '(HEIC is not supported by this build)'
    );
  }
  if (/pixel limit/i.test(m)) {
    return `\`image\` has more than ${MAX_INPUT_PIXELS.toLocaleString('en-US')} pixels; send a smaller image`;
  }
  if (/compression format|hevc|no decoding plugin/i.test(m)) return HEIC_UNSUPPORTED;
  if (/parse colou?r/i.test(m)) return '`background` is not a colour pixel understands';
  return `the image could not be processed: ${m.split('\n')[0]}`;
}

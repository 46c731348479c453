// A request as one operation with validated options. Runs on the event loop that serves the
// gateway, so it never touches the image bytes: the data URI is split at its comma and its size
// estimated from the base64 length; decoding happens in the worker (see images.ts).
import { z } from 'zod';
import { describeIssues, fail } from '../kit/index.js';
import {
  FITS,
  MAX_DIMENSION,
  MAX_INPUT_BYTES,
  OUTPUT_FORMATS,
  PLACEHOLDER_STYLES,
  THUMBNAIL_SIZES,
  tooBigMessage,
  type ImageJob,
  type ImageSource,
} from './model.js';
import type { PlaceholderJob } from './placeholder.js';

export const OPERATIONS = [
  'resize',
  'compress',
  'convert',
  'thumbnail',
  'placeholder',
  'info',
  'adjust',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export type Job = ImageJob | PlaceholderJob;

/** Numbers, or strings of digits (callers writing JSON by hand often quote them). */
function num(schema: z.ZodNumber) {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    schema
  );
}

/** Case-insensitive choice among `values`. */
function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(values));
}

const dimension = num(
  z
    .number()
    .int('must be a whole number of pixels')
    .min(1, 'must be at least 1')
    .max(MAX_DIMENSION, `must be at most ${MAX_DIMENSION}`)
);
const quality = num(
  z.number().int('must be a whole number').min(1, 'must be 1 to 100').max(100, 'must be 1 to 100')
);
/**
 * An output format; `jpg` means JPEG. `"format": "json"` is the kit's way to ask for a JSON reply,
 * so it never names an image format.
 */
const outputFormat = z.preprocess(
  (v) => (typeof v === 'string' ? normalizeFormat(v) : v),
  z.enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` }).optional()
);
const requiredFormat = z.preprocess(
  (v) => (typeof v === 'string' ? normalizeFormat(v) : v),
  z.enum(OUTPUT_FORMATS, {
    error: (issue) =>
      issue.input === undefined
        ? `is required: one of ${OUTPUT_FORMATS.join(', ')}`
        : `must be one of ${OUTPUT_FORMATS.join(', ')}`,
  })
);
function normalizeFormat(v: string): string | undefined {
  const f = v.trim().toLowerCase();
  if (f === 'json') return undefined;
  return f === 'jpg' ? 'jpeg' : f;
}

/** CSS colours that are safe inside an SVG attribute: hex, a name, rgb()/hsl() functions. */
const colour = z
  .string()
  .trim()
  .regex(
    /^(#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|[a-z]{3,30}|(?:rgba?|hsla?)\([\d.%\s,/+-]{1,60}\))$/i,
    'must be a CSS colour: #rgb, #rrggbb, #rrggbbaa, a name such as "white", or rgb()/hsl()'
  );
const bool = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'must be true or false' })
);

const imageField = z.string({ error: 'must be a data URI (data:image/png;base64,…)' });

const schemas = {
  resize: z
    .object({
      image: imageField,
      width: dimension.optional(),
      height: dimension.optional(),
      fit: choice(FITS).default('cover'),
      background: colour.optional(),
      format: outputFormat,
      quality: quality.optional(),
    })
    .refine((o) => o.width !== undefined || o.height !== undefined, {
      path: ['width'],
      message: 'give width, height or both',
    }),
  compress: z.object({
    image: imageField,
    quality: quality.default(75),
    format: outputFormat.transform((f) => f ?? 'webp'),
  }),
  convert: z.object({
    image: imageField,
    format: requiredFormat,
    quality: quality.optional(),
  }),
  thumbnail: z.object({
    image: imageField,
    size: choice(Object.keys(THUMBNAIL_SIZES) as [string, ...string[]]).default('sm'),
    fit: choice(FITS).default('cover'),
    background: colour.optional(),
    format: outputFormat,
    quality: quality.optional(),
  }),
  info: z.object({ image: imageField }),
  adjust: z
    .object({
      image: imageField,
      grayscale: bool.optional(),
      blur: num(z.number().min(1, 'must be 1 to 250').max(250, 'must be 1 to 250')).optional(),
      sharpen: z
        .union([bool, num(z.number().min(0.01).max(10))], {
          error: 'must be true, false or a sigma from 0.01 to 10',
        })
        .optional(),
      brightness: num(
        z.number().min(0.1, 'must be 0.1 to 5 (1 = unchanged)').max(5, 'must be 0.1 to 5')
      ).optional(),
      contrast: num(
        z.number().min(0.1, 'must be 0.1 to 5 (1 = unchanged)').max(5, 'must be 0.1 to 5')
      ).optional(),
      rotate: num(
        z
          .number()
          .refine((r) => r === 90 || r === 180 || r === 270, { message: 'must be 90, 180 or 270' })
      ).optional(),
      format: outputFormat,
      quality: quality.optional(),
    })
    .refine(
      (o) =>
        o.grayscale !== undefined ||
        o.blur !== undefined ||
        (o.sharpen !== undefined && o.sharpen !== false) ||
        o.brightness !== undefined ||
        o.contrast !== undefined ||
        o.rotate !== undefined,
      {
        path: ['grayscale'],
        message: 'say what to adjust: grayscale, blur, sharpen, brightness, contrast or rotate',
      }
    ),
  placeholder: z.object({
    width: dimension.default(300),
    height: dimension.default(200),
    style: choice(PLACEHOLDER_STYLES).default('dimensions'),
    color: colour.default('#6b7280'),
    background: colour.default('#e5e7eb'),
    text: z.string().max(100, 'must be at most 100 characters').optional(),
  }),
};

/** The request's operation and its validated options; fails the task, naming the field, if not. */
export function parseRequest(json: Record<string, unknown>): Job {
  const raw = json.operation ?? json.action;
  if (typeof raw !== 'string' || raw.trim() === '') {
    fail(`say which operation to run: add "operation" with one of ${OPERATIONS.join(', ')}`);
  }
  const operation = raw.trim().toLowerCase() as Operation;
  if (!OPERATIONS.includes(operation)) {
    fail(`unknown operation "${raw}"; use one of ${OPERATIONS.join(', ')}`);
  }
  const parsed = schemas[operation].safeParse(json, { reportInput: true });
  if (!parsed.success) fail(`${operation}: ${describeIssues(parsed.error)}`);
  const o = parsed.data;
  if (operation === 'placeholder') {
    return { operation, ...(o as z.output<(typeof schemas)['placeholder']>) };
  }
  const { image, ...options } = o as { image: string } & Record<string, unknown>;
  return { operation, source: parseDataUri(image), ...options } as ImageJob;
}

/**
 * Splits `data:[<type>][;base64],<payload>` without scanning the payload, and refuses one whose
 * base64 length already shows it is over the limit.
 */
export function parseDataUri(uri: string): ImageSource {
  const comma = uri.indexOf(',');
  if (!uri.startsWith('data:') || comma < 0) {
    fail('`image` must be a data URI such as data:image/png;base64,iVBORw0…');
  }
  const head = uri.slice(5, comma).trim().toLowerCase();
  const parts = head.split(';').map((p) => p.trim());
  const type = parts[0] ?? '';
  if (type !== '' && !type.startsWith('image/') && type !== 'application/octet-stream') {
    fail(`\`image\` must be an image data URI; it says ${type}`);
  }
  const base64 = parts.includes('base64');
  const payload = uri.slice(comma + 1);
  if (payload.trim() === '') fail('`image` is empty: the data URI has no data after the comma');
  // Whitespace aside, base64 carries 3 bytes per 4 characters; percent-encoded text is at most
  // as many bytes as characters. Exact sizes are checked after decoding.
  const estimate = base64
    ? Math.floor((payload.length * 3) / 4) - padding(payload)
    : payload.length;
  if (base64 && estimate > MAX_INPUT_BYTES) fail(tooBigMessage(estimate));
  return { payload, base64, declaredType: type };
}

function padding(payload: string): number {
  const t = payload.trimEnd();
  return t.endsWith('==') ? 2 : t.endsWith('=') ? 1 : 0;
}

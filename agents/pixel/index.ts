// pixel (agent-pixel-official): one image operation per request — resize, compress, convert,
// thumbnail, placeholder, info, adjust — as JSON text with "operation" and the image as a data URI
// (interface-spec "Official agents: how they are called", "Limits"). Decoding and encoding run in
// a worker-thread pool (pool.ts), never on the event loop that serves the gateway.
import { defineAgent, fail } from '../kit/index.js';
import { withAttachedImage } from './attached.js';
import { OPERATIONS, parseRequest } from './parse.js';
import { placeholderSvg } from './placeholder.js';
import { runInPool, stopPool } from './pool.js';
import { imageReply, infoReply } from './render.js';

const EXAMPLE =
  '{"operation": "resize", "image": "data:image/jpeg;base64,/9j/4AAQ…", "width": 300, "height": 200, "fit": "cover"}';

/** Images pixel decodes (sharp's build here); it encodes IMAGES_OUT, and SVG for placeholders. */
const IMAGES_IN = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/avif',
  'image/gif',
  'image/tiff',
  'image/svg+xml',
];
const IMAGES_OUT = ['image/png', 'image/jpeg', 'image/webp', 'image/avif'];
/** Replies are text for people, or JSON data with acceptedOutputModes ["application/json"]. */
const REPLIES = ['text/plain', 'application/json'];

const HELP = [
  '🖼️ pixel: send JSON text with "operation" and, except for placeholder, "image" as a data URI (base64, at most 10 MB).',
  '• or attach the image as a file part, with the JSON text (no "image") or just the operation name (none: info)',
  '• resize: width?, height?, fit? (contain | cover | crop | scale-down | pad; default cover), background?, format?, quality?',
  '• compress: quality? (1-100, default 75), format? (jpeg | png | webp | avif; default webp)',
  '• convert: format (jpeg | png | webp | avif), quality?  — reads JPEG, PNG, WebP, AVIF, GIF, TIFF, SVG',
  '• thumbnail: size? (xs 48 | sm 150 | md 300 | lg 600 | xl 1200; default sm), fit?, format?',
  '• placeholder: width?, height?, style? (solid | crossed | framed | dimensions | gradient | noise), color?, background?, text?  → SVG',
  '• info: dimensions, format and file size',
  '• adjust: grayscale?, blur? (1-250), sharpen?, brightness? (0.1-5), contrast? (0.1-5), rotate? (90 | 180 | 270), format?',
  `Example: ${EXAMPLE}`,
].join('\n');

export default defineAgent({
  id: 'agent-pixel-official',
  alias: 'pixel',
  category: 'utilities',
  tags: [
    'image',
    'resize',
    'compress',
    'convert',
    'thumbnail',
    'placeholder',
    'webp',
    'avif',
    'photo',
  ],
  card: {
    name: 'Pixel',
    description:
      'Image processing: resize, compress, convert (JPEG, PNG, WebP, AVIF out; also GIF, TIFF, SVG in), ' +
      'thumbnails, SVG placeholders, image info and adjustments. JSON text with an "operation" and ' +
      'the image as a data URI (up to 10 MB).',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain', ...IMAGES_IN],
    defaultOutputModes: [...REPLIES, ...IMAGES_OUT],
    skills: [
      {
        id: 'transform',
        name: 'Resize, compress, convert, thumbnail',
        description:
          'resize (width, height, fit contain|cover|crop|scale-down|pad), compress (quality, format; ' +
          'default WebP at 75), convert (format jpeg|png|webp|avif), thumbnail (xs 48, sm 150, md 300, ' +
          'lg 600, xl 1200). Replies with width, height, format, size and the image as a data URI.',
        tags: ['resize', 'compress', 'convert', 'thumbnail', 'webp', 'avif'],
        inputModes: ['text/plain', ...IMAGES_IN],
        outputModes: [...REPLIES, ...IMAGES_OUT],
        examples: [
          EXAMPLE,
          '{"operation": "compress", "image": "data:image/png;base64,iVBORw0…", "quality": 70}',
          '{"operation": "convert", "image": "data:image/png;base64,iVBORw0…", "format": "avif"}',
          '{"operation": "thumbnail", "image": "data:image/jpeg;base64,/9j/4AAQ…", "size": "md"}',
        ],
      },
      {
        id: 'adjust',
        name: 'Adjust',
        description:
          'grayscale, blur (1 to 250), sharpen, brightness and contrast (multipliers, 1 = unchanged), ' +
          'rotate 90, 180 or 270.',
        tags: ['grayscale', 'blur', 'sharpen', 'rotate', 'brightness', 'contrast'],
        inputModes: ['text/plain', ...IMAGES_IN],
        outputModes: [...REPLIES, ...IMAGES_OUT],
        examples: [
          '{"operation": "adjust", "image": "data:image/jpeg;base64,/9j/4AAQ…", "grayscale": true, "rotate": 90}',
        ],
      },
      {
        id: 'placeholder',
        name: 'Placeholder',
        description:
          'An SVG placeholder of any size: style solid, crossed, framed, dimensions, gradient or noise; ' +
          'color and background. No input image.',
        tags: ['placeholder', 'svg', 'mockup'],
        inputModes: ['text/plain'],
        outputModes: [...REPLIES, 'image/svg+xml'],
        examples: ['{"operation": "placeholder", "width": 640, "height": 360, "style": "crossed"}'],
      },
      {
        id: 'info',
        name: 'Image info',
        description: 'Dimensions, format, file size, channels and colour space of an image.',
        tags: ['info', 'metadata', 'dimensions'],
        inputModes: ['text/plain', ...IMAGES_IN],
        outputModes: REPLIES,
        examples: ['{"operation": "info", "image": "data:image/png;base64,iVBORw0…"}'],
      },
    ],
  },

  async handle(req, ctx) {
    const json = withAttachedImage(req.json, req.text, req.message);
    if (!json) {
      const t = req.text.trim().toLowerCase();
      if (t === '' || t === 'help') return HELP;
      fail(`pixel takes JSON text with "operation" (${OPERATIONS.join(', ')}).\n${HELP}`);
    }
    const job = parseRequest(json);
    if (job.operation === 'placeholder') {
      const svg = Buffer.from(placeholderSvg(job), 'utf8');
      return imageReply(
        job,
        {
          width: job.width,
          height: job.height,
          format: 'svg',
          size: svg.length,
          base64: svg.toString('base64'),
          mimeType: 'image/svg+xml',
        },
        req.wantsJson
      );
    }
    const out = await runInPool(job, ctx.config.pixel.threads, ctx.signal);
    if (!out.ok) fail(out.error);
    if (job.operation === 'info') return infoReply({ ...out, details: out.details! });
    return imageReply(job, { ...out, base64: out.base64!, mimeType: out.mimeType! }, req.wantsJson);
  },

  stop: stopPool,
});

// What pixel's operations take and give, shared by the agent (event loop) and its image workers.
// Imports nothing heavy: the workers load it too.

/** Interface-spec "Limits": image input, 10 MB per request (of decoded image bytes). */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;
/** Decoded pixels an input may have: refuses decompression bombs hiding in a small file. */
export const MAX_INPUT_PIXELS = 100_000_000;
/** Largest width or height pixel produces (WebP itself stops at 16383). */
export const MAX_DIMENSION = 8192;

export const OUTPUT_FORMATS = ['jpeg', 'png', 'webp', 'avif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const FITS = ['contain', 'cover', 'crop', 'scale-down', 'pad'] as const;
export type Fit = (typeof FITS)[number];

export const THUMBNAIL_SIZES: Record<string, number> = {
  xs: 48,
  sm: 150,
  md: 300,
  lg: 600,
  xl: 1200,
};

export const PLACEHOLDER_STYLES = [
  'solid',
  'crossed',
  'framed',
  'dimensions',
  'gradient',
  'noise',
] as const;
export type PlaceholderStyle = (typeof PLACEHOLDER_STYLES)[number];

/** An input image as the data URI carried it, still encoded. */
export interface ImageSource {
  payload: string;
  /** `;base64` data URI; otherwise the payload is percent-encoded (SVG text, usually). */
  base64: boolean;
  /** The media type the URI claims; informative only, the bytes decide. */
  declaredType: string;
}

interface Encode {
  format?: OutputFormat;
  quality?: number;
}

export type ImageJob =
  | ({
      operation: 'resize';
      source: ImageSource;
      width?: number;
      height?: number;
      fit: Fit;
      background?: string;
    } & Encode)
  | { operation: 'compress'; source: ImageSource; format: OutputFormat; quality: number }
  | { operation: 'convert'; source: ImageSource; format: OutputFormat; quality?: number }
  | ({
      operation: 'thumbnail';
      source: ImageSource;
      size: string;
      fit: Fit;
      background?: string;
    } & Encode)
  | { operation: 'info'; source: ImageSource }
  | ({
      operation: 'adjust';
      source: ImageSource;
      grayscale?: boolean;
      blur?: number;
      sharpen?: boolean | number;
      brightness?: number;
      contrast?: number;
      rotate?: number;
    } & Encode);

/** What a worker answers: an image (or, for info, its description), or a message for the caller. */
export type ImageOutcome =
  | {
      ok: true;
      width: number;
      height: number;
      /** jpeg, png, webp, avif, gif, tiff, svg, heif. */
      format: string;
      /** Bytes of the output image (for info, of the input). */
      size: number;
      /** The output image, base64; absent for info. */
      base64?: string;
      mimeType?: string;
      /** For info: what else the image says about itself. */
      details?: ImageDetails;
      inputFormat: string;
    }
  | { ok: false; error: string };

export interface ImageDetails {
  channels: number;
  space: string;
  hasAlpha: boolean;
  pages: number;
  orientation?: number;
  density?: number;
}

export const MIME_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  heif: 'image/heif',
};

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

export function tooBigMessage(bytes: number): string {
  return (
    `\`image\` is ${formatBytes(bytes)} (${bytes.toLocaleString('en-US')} bytes); the limit is ` +
    `${formatBytes(MAX_INPUT_BYTES)} (${MAX_INPUT_BYTES.toLocaleString('en-US')} bytes) of image data`
  );
}

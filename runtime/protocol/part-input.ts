// Tolerant input parts (decisions.md §1 "Input is tolerant everywhere"): the hub shape (spec
// "Part": kind + mimeType), the A2A v1.0 shape (exactly one of text|raw|url|data) and the v0.3
// shape (kind + file {bytes|uri} or data {object}) all normalize to the one model Part.
import { z } from 'zod';
import type { Part } from './model.js';

export const JSON_MIME = 'application/json';
/** A v1.0/v0.3 file part may omit its media type; the hub shape may not (spec "Part"). */
const OCTET_STREAM = 'application/octet-stream';
/** a2a-js wraps a non-object v0.3 data value as {value} and marks it with this metadata flag. */
export const DATA_PART_COMPAT_FLAG = 'data_part_compat';

export const Metadata = z.record(z.string(), z.unknown());
export type Metadata = z.infer<typeof Metadata>;

/** Standard or URL-safe base64; stored as standard base64 (model Part `data`). */
const Base64 = z
  .string()
  .regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'must be base64')
  .transform((s) => (/[-_]/.test(s) ? s.replace(/-/g, '+').replace(/_/g, '/') : s));

const MimeType = z.string().trim().min(1);
const Uri = z.string().min(1);

const HubTextPart = z.object({
  kind: z.literal('text'),
  text: z.string(),
  metadata: Metadata.optional(),
});

const HubFilePart = z.object({
  kind: z.literal('file'),
  mimeType: MimeType,
  name: z.string().optional(),
  data: Base64.optional(),
  uri: Uri.optional(),
  metadata: Metadata.optional(),
});

const HubDataPart = z.object({
  kind: z.literal('data'),
  mimeType: MimeType,
  data: z.string(),
  metadata: Metadata.optional(),
});

const V03FilePart = z.object({
  kind: z.literal('file'),
  file: z.object({
    bytes: Base64.optional(),
    uri: Uri.optional(),
    mimeType: MimeType.optional(),
    name: z.string().optional(),
  }),
  metadata: Metadata.optional(),
});

const V03DataPart = z.object({
  kind: z.literal('data'),
  data: z.unknown(),
  mimeType: MimeType.optional(),
  metadata: Metadata.optional(),
});

const V1Common = {
  mediaType: MimeType.optional(),
  filename: z.string().optional(),
  metadata: Metadata.optional(),
};
const V1TextPart = z.object({ text: z.string(), ...V1Common });
const V1RawPart = z.object({ raw: Base64, ...V1Common });
const V1UrlPart = z.object({ url: Uri, ...V1Common });
const V1DataPart = z.object({ data: z.unknown(), ...V1Common });

const V1_CONTENT = ['text', 'raw', 'url', 'data'] as const;

type Issue = { path: PropertyKey[]; message: string };
type Outcome = { ok: true; part: Part } | { ok: false; issues: z.core.$ZodRawIssue[] };

/**
 * Any accepted part shape → the model Part. Errors carry paths relative to the part
 * (`text`, `mimeType`, `file.bytes` …), so callers see `message.parts.0.mimeType`.
 */
export const PartInput = z.unknown().transform((raw, ctx): Part => {
  const outcome = normalizePart(raw);
  if (outcome.ok) return outcome.part;
  for (const issue of outcome.issues) ctx.addIssue(issue);
  return z.NEVER;
});

function normalizePart(raw: unknown): Outcome {
  if (!isPlainObject(raw)) return fail({ path: [], message: 'must be an object' });
  if (raw.kind !== undefined) return normalizeKindPart(raw);
  const present = V1_CONTENT.filter((k) => raw[k] !== undefined && raw[k] !== null);
  const [content] = present;
  if (content === undefined) {
    return fail({
      path: [],
      message: 'a part needs `kind` or one of `text`, `raw`, `url`, `data`',
    });
  }
  if (present.length > 1) {
    return fail({
      path: [],
      message: `a part holds exactly one of text, raw, url, data (got ${present.join(', ')})`,
    });
  }
  // Hub-style field names are accepted on v1.0 parts too.
  const v1 = {
    ...raw,
    mediaType: raw.mediaType ?? raw.mimeType,
    filename: raw.filename ?? raw.name,
  };
  switch (content) {
    case 'text':
      return run(V1TextPart, v1, (p) => textPart(p.text, p.metadata));
    case 'raw':
      return run(V1RawPart, v1, (p) =>
        filePart(p.mediaType ?? OCTET_STREAM, { data: p.raw }, p.filename, p.metadata)
      );
    case 'url':
      return run(V1UrlPart, v1, (p) =>
        filePart(p.mediaType ?? OCTET_STREAM, { uri: p.url }, p.filename, p.metadata)
      );
    case 'data':
      return run(V1DataPart, v1, (p) => dataPartFromJson(p.data, p.mediaType, p.metadata));
  }
}

function normalizeKindPart(raw: Record<string, unknown>): Outcome {
  switch (raw.kind) {
    case 'text':
      return run(HubTextPart, raw, (p) => textPart(p.text, p.metadata));
    case 'file': {
      if (raw.file !== undefined) {
        return run(V03FilePart, raw, (p) => {
          const { bytes, uri, mimeType, name } = p.file;
          if (bytes === undefined && uri === undefined) {
            return {
              path: ['file', 'bytes'],
              message: 'a file part needs `bytes` (base64) or `uri`',
            };
          }
          const content = bytes !== undefined ? { data: bytes } : { uri: uri ?? '' };
          return filePart(mimeType ?? OCTET_STREAM, content, name, p.metadata);
        });
      }
      const hub = { ...raw, mimeType: raw.mimeType ?? raw.mediaType };
      return run(HubFilePart, hub, (p) => {
        if (p.data === undefined && p.uri === undefined) {
          return { path: ['data'], message: 'a file part needs `data` (base64) or `uri`' };
        }
        const content = p.data !== undefined ? { data: p.data } : { uri: p.uri ?? '' };
        return filePart(p.mimeType, content, p.name, p.metadata);
      });
    }
    case 'data': {
      if (raw.data === undefined || raw.data === null) {
        return fail({ path: ['data'], message: 'a data part needs `data`' });
      }
      const mimeType = raw.mimeType ?? raw.mediaType;
      // A string is the hub shape (content as text, mimeType required); anything else is v0.3.
      if (typeof raw.data === 'string') {
        return run(HubDataPart, { ...raw, mimeType }, (p) => ({
          kind: 'data',
          mimeType: p.mimeType,
          data: p.data,
          ...(p.metadata ? { metadata: p.metadata } : {}),
        }));
      }
      return run(V03DataPart, { ...raw, mimeType }, (p) => {
        const { value, metadata } = unwrapCompatData(p.data, p.metadata);
        return dataPartFromJson(value, p.mimeType, metadata);
      });
    }
    default:
      return fail({ path: ['kind'], message: 'must be one of text, file, data' });
  }
}

/** Parses `input` with `schema`, then builds the part (or reports a cross-field issue). */
function run<S extends z.ZodType>(
  schema: S,
  input: unknown,
  build: (parsed: z.output<S>) => Part | Issue
): Outcome {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) return { ok: false, issues: result.error.issues as z.core.$ZodRawIssue[] };
  const built = build(result.data);
  return 'kind' in built ? { ok: true, part: built } : fail(built);
}

function fail(issue: Issue): Outcome {
  return {
    ok: false,
    issues: [{ code: 'custom', path: issue.path, message: issue.message, input: undefined }],
  };
}

function textPart(text: string, metadata?: Metadata): Part {
  return metadata ? { kind: 'text', text, metadata } : { kind: 'text', text };
}

function filePart(
  mimeType: string,
  content: { data: string } | { uri: string },
  name?: string,
  metadata?: Metadata
): Part {
  return {
    kind: 'file',
    mimeType,
    ...(name !== undefined && name !== '' ? { name } : {}),
    ...content,
    ...(metadata ? { metadata } : {}),
  };
}

/**
 * A JSON value as a model data part. Without a media type, or with a JSON one, the value is
 * serialized (a v1.0 `data` is any JSON value); a string under another media type (text/csv …)
 * already is the content.
 */
export function dataPartFromJson(value: unknown, mimeType?: string, metadata?: Metadata): Part {
  const type = mimeType ?? JSON_MIME;
  const data = typeof value === 'string' && !isJsonMime(type) ? value : JSON.stringify(value);
  return { kind: 'data', mimeType: type, data, ...(metadata ? { metadata } : {}) };
}

function unwrapCompatData(
  data: unknown,
  metadata?: Metadata
): { value: unknown; metadata?: Metadata } {
  if (metadata?.[DATA_PART_COMPAT_FLAG] !== true || !isPlainObject(data) || !('value' in data)) {
    return metadata ? { value: data, metadata } : { value: data };
  }
  const { [DATA_PART_COMPAT_FLAG]: _flag, ...rest } = metadata;
  return Object.keys(rest).length > 0
    ? { value: data.value, metadata: rest }
    : { value: data.value };
}

/** application/json and the structured-syntax suffix types (application/ld+json …). */
export function isJsonMime(mimeType: string): boolean {
  const base = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === JSON_MIME || base.endsWith('+json');
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// The hot path's reader of input parts: part-input.ts's PartInput (hub, A2A v1.0 and v0.3 shapes →
// the model Part) without zod, field for field and in the same order, so it accepts, normalizes and
// refuses exactly as that schema does (part-check.test.ts runs both).
import {
  fieldAt,
  isObject,
  readObject,
  readOptMetadata,
  readOptString,
  readString,
  refuse,
  type Json,
} from './input-check.js';
import type { Part } from './model.js';
import { dataPartFromJson, DATA_PART_COMPAT_FLAG } from './part-input.js';

const OCTET_STREAM = 'application/octet-stream';
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const URL_SAFE = /[-_]/;

/** One input part at `at` (`message.parts.0`) as the model Part; throws InvalidParamsError. */
export function readPart(raw: unknown, at: string): Part {
  if (!isObject(raw)) return refuse(at, 'must be an object');
  if (raw.kind !== undefined) return readKindPart(raw, at);
  const text = present(raw.text);
  const content =
    (text ? 1 : 0) +
    (present(raw.raw) ? 1 : 0) +
    (present(raw.url) ? 1 : 0) +
    (present(raw.data) ? 1 : 0);
  if (content === 0) {
    return refuse(at, 'a part needs `kind` or one of `text`, `raw`, `url`, `data`');
  }
  if (content > 1) {
    const names = ['text', 'raw', 'url', 'data'].filter((k) => present(raw[k]));
    return refuse(at, `a part holds exactly one of text, raw, url, data (got ${names.join(', ')})`);
  }
  // Hub-style field names are accepted on v1.0 parts too.
  const mediaType = raw.mediaType ?? raw.mimeType;
  const filename = raw.filename ?? raw.name;
  if (text) {
    const t = readString(raw.text, fieldAt(at, 'text'));
    readV1Common(mediaType, filename, at);
    return textPart(t, readOptMetadata(raw.metadata, fieldAt(at, 'metadata')));
  }
  if (present(raw.raw)) {
    const bytes = readBase64(raw.raw, fieldAt(at, 'raw'));
    const c = readV1Common(mediaType, filename, at);
    const metadata = readOptMetadata(raw.metadata, fieldAt(at, 'metadata'));
    return filePart(c.mediaType ?? OCTET_STREAM, { data: bytes }, c.filename, metadata);
  }
  if (present(raw.url)) {
    const uri = readUri(raw.url, fieldAt(at, 'url'));
    const c = readV1Common(mediaType, filename, at);
    const metadata = readOptMetadata(raw.metadata, fieldAt(at, 'metadata'));
    return filePart(c.mediaType ?? OCTET_STREAM, { uri }, c.filename, metadata);
  }
  const c = readV1Common(mediaType, filename, at);
  const metadata = readOptMetadata(raw.metadata, fieldAt(at, 'metadata'));
  return dataPartFromJson(raw.data, c.mediaType, metadata);
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** The v1.0 fields every content kind has (metadata is read after, by the caller). */
function readV1Common(
  mediaType: unknown,
  filename: unknown,
  at: string
): { mediaType?: string; filename?: string } {
  return {
    mediaType: readOptMime(mediaType, fieldAt(at, 'mediaType')),
    filename: readOptString(filename, fieldAt(at, 'filename')),
  };
}

function readKindPart(raw: Json, at: string): Part {
  switch (raw.kind) {
    case 'text': {
      const text = readString(raw.text, fieldAt(at, 'text'));
      return textPart(text, readOptMetadata(raw.metadata, fieldAt(at, 'metadata')));
    }
    case 'file':
      return raw.file !== undefined ? readV03FilePart(raw, at) : readHubFilePart(raw, at);
    case 'data': {
      if (raw.data === undefined || raw.data === null) {
        return refuse(fieldAt(at, 'data'), 'a data part needs `data`');
      }
      const mimeType = raw.mimeType ?? raw.mediaType;
      // A string is the hub shape (content as text, mimeType required); anything else is v0.3.
      if (typeof raw.data === 'string') {
        const type = readMime(mimeType, fieldAt(at, 'mimeType'));
        const metadata = readOptMetadata(raw.metadata, fieldAt(at, 'metadata'));
        return { kind: 'data', mimeType: type, data: raw.data, ...(metadata ? { metadata } : {}) };
      }
      const type = readOptMime(mimeType, fieldAt(at, 'mimeType'));
      const metadata = readOptMetadata(raw.metadata, fieldAt(at, 'metadata'));
      const unwrapped = unwrapCompatData(raw.data, metadata);
      return dataPartFromJson(unwrapped.value, type, unwrapped.metadata);
    }
    default:
      return refuse(fieldAt(at, 'kind'), 'must be one of text, file, data');
  }
}

/** v0.3: {kind:'file', file:{bytes|uri, mimeType, name}}. */
function readV03FilePart(raw: Json, at: string): Part {
  const fileAt = fieldAt(at, 'file');
  const file = readObject(raw.file, fileAt);
  const bytes = readOptBase64(file.bytes, fieldAt(fileAt, 'bytes'));
  const uri = file.uri === undefined ? undefined : readUri(file.uri, fieldAt(fileAt, 'uri'));
  const mimeType = readOptMime(file.mimeType, fieldAt(fileAt, 'mimeType'));
  const name = readOptString(file.name, fieldAt(fileAt, 'name'));
  const metadata = readOptMetadata(raw.metadata, fieldAt(at, 'metadata'));
  if (bytes === undefined && uri === undefined) {
    return refuse(fieldAt(fileAt, 'bytes'), 'a file part needs `bytes` (base64) or `uri`');
  }
  const content = bytes !== undefined ? { data: bytes } : { uri: uri ?? '' };
  return filePart(mimeType ?? OCTET_STREAM, content, name, metadata);
}

/** The hub shape: {kind:'file', mimeType, name?, data|uri}. */
function readHubFilePart(raw: Json, at: string): Part {
  const mimeType = readMime(raw.mimeType ?? raw.mediaType, fieldAt(at, 'mimeType'));
  const name = readOptString(raw.name, fieldAt(at, 'name'));
  const data = readOptBase64(raw.data, fieldAt(at, 'data'));
  const uri = raw.uri === undefined ? undefined : readUri(raw.uri, fieldAt(at, 'uri'));
  const metadata = readOptMetadata(raw.metadata, fieldAt(at, 'metadata'));
  if (data === undefined && uri === undefined) {
    return refuse(fieldAt(at, 'data'), 'a file part needs `data` (base64) or `uri`');
  }
  const content = data !== undefined ? { data } : { uri: uri ?? '' };
  return filePart(mimeType, content, name, metadata);
}

/** part-input's MimeType: a string, trimmed, then non-empty. */
function readMime(v: unknown, field: string): string {
  const s = readString(v, field).trim();
  if (s.length < 1) refuse(field, 'must not be empty');
  return s;
}

function readOptMime(v: unknown, field: string): string | undefined {
  return v === undefined ? undefined : readMime(v, field);
}

function readUri(v: unknown, field: string): string {
  const s = readString(v, field);
  if (s.length < 1) refuse(field, 'must not be empty');
  return s;
}

/** Standard or URL-safe base64, stored as standard base64. */
function readBase64(v: unknown, field: string): string {
  const s = readString(v, field);
  if (!BASE64.test(s)) refuse(field, 'must be base64');
  return URL_SAFE.test(s) ? s.replace(/-/g, '+').replace(/_/g, '/') : s;
}

function readOptBase64(v: unknown, field: string): string | undefined {
  return v === undefined ? undefined : readBase64(v, field);
}

function textPart(text: string, metadata?: Json): Part {
  return metadata ? { kind: 'text', text, metadata } : { kind: 'text', text };
}

function filePart(
  mimeType: string,
  content: { data: string } | { uri: string },
  name?: string,
  metadata?: Json
): Part {
  return {
    kind: 'file',
    mimeType,
    ...(name !== undefined && name !== '' ? { name } : {}),
    ...content,
    ...(metadata ? { metadata } : {}),
  };
}

/** a2a-js's {value} wrapping of a non-object v0.3 data value, marked by a metadata flag. */
function unwrapCompatData(data: unknown, metadata?: Json): { value: unknown; metadata?: Json } {
  if (metadata?.[DATA_PART_COMPAT_FLAG] !== true || !isObject(data) || !('value' in data)) {
    return metadata ? { value: data, metadata } : { value: data };
  }
  const { [DATA_PART_COMPAT_FLAG]: _flag, ...rest } = metadata;
  return Object.keys(rest).length > 0
    ? { value: data.value, metadata: rest }
    : { value: data.value };
}

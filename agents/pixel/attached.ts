// An image attached as a file part, as A2A clients send images (the card declares image input
// modes). It stands for the request's `image` when the JSON text leaves that out; with no JSON, a
// bare operation name (or no text at all: info) applies that operation to it. Only inline bytes
// are read: pixel fetches nothing from a part's `uri`.
import type { Message } from '../../runtime/protocol/index.js';
import { OPERATIONS } from './parse.js';

/** The request as JSON with the attached image folded in; `json` unchanged when none is attached. */
export function withAttachedImage(
  json: Record<string, unknown> | undefined,
  text: string,
  message: Message
): Record<string, unknown> | undefined {
  const part = message.parts.find(
    (p) =>
      p.kind === 'file' && p.mimeType.toLowerCase().startsWith('image/') && p.data !== undefined
  );
  if (part?.kind !== 'file' || part.data === undefined) return json;
  const image = `data:${part.mimeType};base64,${part.data}`;
  if (json !== undefined) return json.image === undefined ? { ...json, image } : json;
  const operation = text.trim().toLowerCase() || 'info';
  return (OPERATIONS as readonly string[]).includes(operation) ? { operation, image } : undefined;
}

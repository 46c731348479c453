// The hot path's reader of SendMessage params (all three dialects): hub-schema's SendMessageParams
// without zod, same fields, same order, same refusals (send-check.test.ts runs both).
import type { SendMessageConfiguration, SendMessageParams } from './hub-schema.js';
import { newMessageId } from './hub-schema.js';
import {
  fieldAt,
  isObject,
  readArray,
  readOptBoolean,
  readOptCount,
  readOptId,
  readOptMetadata,
  readString,
  refuse,
  wrongType,
  type Json,
} from './input-check.js';
import type { Message, Part, Role } from './model.js';
import { readPart } from './part-check.js';

const ROLES: Readonly<Record<string, Role>> = {
  user: 'user',
  agent: 'agent',
  ROLE_USER: 'user',
  ROLE_AGENT: 'agent',
};
const ROLE_CHOICES = Object.keys(ROLES)
  .map((r) => JSON.stringify(r))
  .join(', ');

/** SendMessage/SendStreamingMessage params; absent params read as `{}`. Throws InvalidParamsError. */
export function readSendMessageParams(params: unknown): SendMessageParams {
  const p = params === undefined ? {} : params;
  if (!isObject(p)) return wrongType('', 'an object', p);
  const message = readMessage(p.message, 'message');
  const configuration =
    p.configuration === undefined ? undefined : readConfiguration(p.configuration);
  const metadata = readOptMetadata(p.metadata, 'metadata');
  return {
    message,
    ...(configuration !== undefined ? { configuration } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
  };
}

/** hub-schema's MessageInput: a caller's message, role user by default, a messageId made up. */
export function readMessage(v: unknown, at: string): Message {
  if (!isObject(v)) return wrongType(at, 'an object', v);
  const role = readRole(v.role, fieldAt(at, 'role'));
  const parts = readParts(v.parts, fieldAt(at, 'parts'), true);
  const messageId = readOptId(v.messageId, fieldAt(at, 'messageId'));
  const contextId = readOptId(v.contextId, fieldAt(at, 'contextId'));
  const taskId = readOptId(v.taskId, fieldAt(at, 'taskId'));
  const metadata = readOptMetadata(v.metadata, fieldAt(at, 'metadata'));
  return {
    role: role ?? 'user',
    parts,
    messageId: messageId ?? newMessageId(),
    ...(contextId !== undefined ? { contextId } : {}),
    ...(taskId !== undefined ? { taskId } : {}),
    ...(metadata !== undefined ? callerMetadata(metadata) : {}),
  };
}

/** A list of input parts; `nonEmpty` as `.min(1)`. */
export function readParts(v: unknown, at: string, nonEmpty: boolean): Part[] {
  const raw = readArray(v, at);
  if (nonEmpty && raw.length === 0) refuse(at, 'must not be empty');
  const parts = new Array<Part>(raw.length);
  for (let i = 0; i < raw.length; i++) parts[i] = readPart(raw[i], `${at}.${i}`);
  return parts;
}

function readRole(v: unknown, field: string): Role | undefined {
  if (v === undefined) return undefined;
  const role = typeof v === 'string' && Object.hasOwn(ROLES, v) ? ROLES[v] : undefined;
  if (role === undefined) refuse(field, `must be one of ${ROLE_CHOICES}`);
  return role;
}

/** Without any `x-hub`: only the hub writes envelopes (decisions.md §4). */
function callerMetadata(md: Json): { metadata?: Json } {
  if (!Object.hasOwn(md, 'x-hub')) return { metadata: md };
  const { 'x-hub': _forged, ...rest } = md;
  return Object.keys(rest).length > 0 ? { metadata: rest } : {};
}

function readConfiguration(v: unknown): SendMessageConfiguration {
  const at = 'configuration';
  if (!isObject(v)) return wrongType(at, 'an object', v);
  const agentId = readOptId(v.agentId, 'configuration.agentId');
  const contextId = readOptId(v.contextId, 'configuration.contextId');
  const taskId = readOptId(v.taskId, 'configuration.taskId');
  const historyLength = readOptCount(v.historyLength, 'configuration.historyLength');
  const acceptedOutputModes = readOptStrings(
    v.acceptedOutputModes,
    'configuration.acceptedOutputModes'
  );
  const blocking = readOptBoolean(v.blocking, 'configuration.blocking');
  const returnImmediately = readOptBoolean(v.returnImmediately, 'configuration.returnImmediately');
  const ttl = readOptCount(v['x-ttl'], 'configuration.x-ttl');
  return {
    agentId,
    contextId,
    taskId,
    historyLength,
    acceptedOutputModes,
    blocking,
    returnImmediately,
    'x-ttl': ttl,
  };
}

function readOptStrings(v: unknown, at: string): string[] | undefined {
  if (v === undefined) return undefined;
  const list = readArray(v, at);
  for (let i = 0; i < list.length; i++) readString(list[i], `${at}.${i}`);
  return list.slice() as string[];
}

// The hand-written readers of the hot path against the zod schemas they replace (issue 19, Must 4):
// over the bad-input corpus, valid messages of all three dialects (the codecs' own output) and
// thousands of mutated variants, both must accept with the same normalized value or refuse with
// the same -32602 error naming the same field.
import { describe, expect, it } from 'vitest';
import { CORPUS, type CorpusContext } from '../../test/support/fuzz/bad-input-corpus.js';
import { mulberry32, type Rng } from '../../test/support/fuzz/prng.js';
import { oddString, oddValue } from '../../test/support/fuzz/values.js';
import { HubError } from '../errors/index.js';
import { encodeMessageHub } from './codec-hub.js';
import { encodeMessageV03 } from './codec-v03.js';
import { encodeMessageV1 } from './codec-v1.js';
import {
  CancelTaskParams,
  GetTaskParams,
  SendMessageParams,
  SubscribeToTaskParams,
  TaskRespondParams,
} from './hub-schema.js';
import type { Message, Part } from './model.js';
import { parseParams } from './parse-params.js';
import { readTaskRespondParams } from './respond-check.js';
import { readSendMessageParams } from './send-check.js';
import {
  readCancelTaskParams,
  readGetTaskParams,
  readSubscribeToTaskParams,
} from './task-id-check.js';

type Outcome =
  | { ok: true; value: unknown }
  | { ok: false; code: number; message: string; data: unknown }
  | { ok: false; thrown: string };

function outcome(f: () => unknown): Outcome {
  try {
    return { ok: true, value: withoutMadeUpIds(f()) };
  } catch (e) {
    if (e instanceof HubError)
      return { ok: false, code: e.rpcCode, message: e.message, data: e.data };
    return { ok: false, thrown: e instanceof Error ? e.constructor.name : typeof e };
  }
}

/** Ids both sides make up at random (msg-<uuid>, artifact-<uuid>) compare as equal. */
function withoutMadeUpIds(v: unknown): unknown {
  return JSON.parse(
    JSON.stringify(v, (_k, x: unknown) =>
      typeof x === 'string' && /^(msg|artifact)-[0-9a-f-]{36}$/.test(x) ? `${x.split('-')[0]}-*` : x
    )
  ) as unknown;
}

const READERS = {
  send: {
    zod: (p: unknown) => parseParams(SendMessageParams, p),
    fast: readSendMessageParams,
  },
  respond: {
    zod: (p: unknown) => parseParams(TaskRespondParams, p),
    fast: readTaskRespondParams,
  },
  get: { zod: (p: unknown) => parseParams(GetTaskParams, p), fast: readGetTaskParams },
  cancel: { zod: (p: unknown) => parseParams(CancelTaskParams, p), fast: readCancelTaskParams },
  subscribe: {
    zod: (p: unknown) => parseParams(SubscribeToTaskParams, p),
    fast: readSubscribeToTaskParams,
  },
} as const;
type Kind = keyof typeof READERS;

interface Tally {
  accepted: number;
  refused: number;
  fields: Set<string>;
}

function compare(kind: Kind, input: unknown, tally: Tally, label: string): void {
  const want = outcome(() => READERS[kind].zod(input));
  const got = outcome(() => READERS[kind].fast(input));
  expect(got, `${kind} ${label}: ${preview(input)}`).toEqual(want);
  if (want.ok) tally.accepted++;
  else {
    tally.refused++;
    const field = 'data' in want ? (want.data as { field?: string }).field : undefined;
    if (field !== undefined) tally.fields.add(field);
  }
}

function preview(v: unknown): string {
  try {
    return JSON.stringify(v).slice(0, 300);
  } catch {
    return String(v);
  }
}

const CONTEXT: CorpusContext = { key: 'k', senderId: 'agent-s', offlineAgentId: 'agent-o' };
const SEND_METHODS = new Set([
  'SendMessage',
  'SendStreamingMessage',
  'message/send',
  'message/stream',
]);

/** Every SendMessage params and agent answer the corpus sends, as the hub would read them. */
function corpusInputs(): { kind: Kind; input: unknown; name: string }[] {
  const out: { kind: Kind; input: unknown; name: string }[] = [];
  const fromRequest = (req: unknown, name: string) => {
    if (typeof req !== 'object' || req === null) return;
    const { method, params } = req as { method?: unknown; params?: unknown };
    if (typeof method === 'string' && SEND_METHODS.has(method))
      out.push({ kind: 'send', input: params, name });
    if (method === 'task/respond') out.push({ kind: 'respond', input: params, name });
    if (method === 'GetTask' || method === 'tasks/get')
      out.push({ kind: 'get', input: params, name });
    if (method === 'CancelTask' || method === 'tasks/cancel') {
      out.push({ kind: 'cancel', input: params, name });
    }
    if (method === 'SubscribeToTask' || method === 'tasks/resubscribe') {
      out.push({ kind: 'subscribe', input: params, name });
    }
  };
  for (const entry of CORPUS) {
    let text: string;
    if (entry.kind === 'http') {
      const bytes = entry.request(CONTEXT);
      const at = bytes.indexOf('\r\n\r\n');
      if (at < 0) continue;
      text = bytes.subarray(at + 4).toString('utf8');
    } else {
      text = entry.frame(CONTEXT).toString();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    if (Array.isArray(parsed)) parsed.forEach((r) => fromRequest(r, entry.name));
    else if (typeof parsed === 'object' && parsed !== null) {
      if ((parsed as { type?: unknown }).type === 'task_response') {
        out.push({ kind: 'respond', input: parsed, name: entry.name });
      }
      fromRequest(parsed, entry.name);
    }
  }
  return out;
}

const PNG = 'iVBORw0KGgo=';
const PARTS: Part[] = [
  { kind: 'text', text: 'caption', metadata: { lang: 'en' } },
  { kind: 'file', mimeType: 'image/png', name: 'c.png', data: PNG },
  { kind: 'file', mimeType: 'application/pdf', uri: 'https://files.example/x.pdf' },
  { kind: 'data', mimeType: 'application/json', data: '{"rows":[1,2],"ok":true}' },
  { kind: 'data', mimeType: 'application/json', data: '[1,2,3]' },
  { kind: 'data', mimeType: 'text/csv', data: 'a,b\n1,2' },
];
const MESSAGE: Message = {
  role: 'agent',
  parts: PARTS,
  messageId: 'm-1',
  contextId: 'ctx-1',
  taskId: 'task-1',
  metadata: { trace: 'x', 'x-hub': { forged: true } },
};

/** Valid params of every dialect: the codecs' own messages, and the spelling variants they read. */
function validSamples(): { kind: Kind; input: unknown }[] {
  const wire = [encodeMessageHub(MESSAGE), encodeMessageV1(MESSAGE), encodeMessageV03(MESSAGE)];
  const loose: unknown[] = [
    { parts: [{ text: 'hi', mimeType: 'text/plain', name: 'n' }] },
    { role: 'ROLE_USER', parts: [{ raw: 'a-b_c=', filename: 'f' }], messageId: '' },
    { parts: [{ url: 'https://x', mediaType: ' image/png ' }], contextId: '', taskId: 't' },
    {
      parts: [
        { data: 'text', mediaType: 'text/csv' },
        { data: null, text: 'only text' },
      ],
    },
    { parts: [{ kind: 'file', file: { uri: 'u', name: '' } }] },
    { parts: [{ kind: 'data', data: { value: 5 }, metadata: { data_part_compat: true } }] },
    { parts: [{ kind: 'data', data: { value: 5 }, metadata: { data_part_compat: true, a: 1 } }] },
    { parts: [{ kind: 'data', data: 'x', mediaType: 'text/plain' }] },
    { parts: [{ kind: 'file', mediaType: 'a/b', data: 'QQ==' }], metadata: { 'x-hub': 1 } },
  ];
  const sends = [...wire, ...loose].flatMap((message) => [
    { kind: 'send' as const, input: { message } },
    {
      kind: 'send' as const,
      input: {
        message,
        configuration: {
          agentId: 'agent-b',
          contextId: 'ctx-1',
          historyLength: 3,
          acceptedOutputModes: ['text/plain'],
          blocking: true,
          returnImmediately: false,
          'x-ttl': 60,
        },
        metadata: { a: 1 },
      },
    },
  ]);
  const responds = [
    { taskId: 't', status: { state: 'completed' } },
    { taskId: 't', status: { state: 'TASK_STATE_INPUT_REQUIRED', message: 'more?' } },
    { taskId: 't', status: { state: 'working', message: encodeMessageV1(MESSAGE) } },
    { taskId: 't', status: { state: 'failed', message: { parts: [] } } },
    {
      type: 'task_response',
      taskId: 't',
      status: { state: 'completed' },
      artifact: { id: 'a1', name: 'n', mimeType: 'text/plain', parts: PARTS },
      lastChunk: false,
    },
    {
      taskId: 't',
      status: { state: 'completed' },
      artifact: { parts: encodeMessageV03(MESSAGE).parts },
    },
  ].map((input) => ({ kind: 'respond' as const, input }));
  const byId = [
    { kind: 'get' as const, input: { id: 'task-1' } },
    { kind: 'get' as const, input: { id: 'task-1', historyLength: 2 } },
    { kind: 'cancel' as const, input: { id: 'task-1', metadata: { why: 'done' } } },
    { kind: 'subscribe' as const, input: { id: 'task-1' } },
  ];
  return [...sends, ...responds, ...byId];
}

/** Values aimed at the fields' edges, beside the generic hostile ones. */
const EDGES: unknown[] = [
  undefined,
  null,
  '',
  '  ',
  'x',
  'a'.repeat(256),
  'a'.repeat(257),
  'a\u0000b',
  'a\ud800',
  'QQ==',
  'a b',
  -1,
  0,
  1.5,
  2 ** 53,
  -(2 ** 53),
  1e300,
  true,
  [],
  [1],
  ['x'],
  {},
  { kind: 'text' },
  { kind: 'text', text: 'x' },
  { text: 'x', raw: 'QQ==' },
  { parts: [] },
  { parts: [{ text: 'x' }] },
  'user',
  'ROLE_AGENT',
  'completed',
  'TASK_STATE_CANCELED',
  'file',
  'data',
  'text',
];
const KEYS = [
  'kind',
  'text',
  'raw',
  'url',
  'data',
  'file',
  'bytes',
  'uri',
  'mimeType',
  'mediaType',
  'name',
  'filename',
  'metadata',
  'role',
  'parts',
  'messageId',
  'contextId',
  'taskId',
  'configuration',
  'agentId',
  'historyLength',
  'acceptedOutputModes',
  'blocking',
  'returnImmediately',
  'x-ttl',
  'status',
  'state',
  'message',
  'artifact',
  'artifactId',
  'id',
  'lastChunk',
  'x-hub',
  'data_part_compat',
  '__proto__',
];

/** Changes one place anywhere in `v` (objects and arrays), returning the new value. */
function mutate(r: Rng, v: unknown, depth = 0): unknown {
  const here = depth > 0 && r.chance(0.15);
  if (Array.isArray(v) && v.length > 0 && !here) {
    const copy = [...v];
    const i = r.int(copy.length);
    if (r.chance(0.1)) copy.splice(i, 1);
    else copy[i] = mutate(r, copy[i], depth + 1);
    return copy;
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && !here) {
    const copy: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    const keys = Object.keys(copy);
    const key = keys.length === 0 || r.chance(0.2) ? r.pick(KEYS) : r.pick(keys);
    if (Object.hasOwn(copy, key) && r.chance(0.6)) {
      Object.defineProperty(copy, key, {
        value: mutate(r, copy[key], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else if (r.chance(0.3)) {
      delete copy[key];
    } else {
      Object.defineProperty(copy, key, {
        value: r.chance(0.6) ? r.pick(EDGES) : r.chance(0.5) ? oddValue(r) : oddString(r),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return r.chance(0.7) ? r.pick(EDGES) : oddValue(r);
}

describe('hand-written params readers match the zod schemas', () => {
  it('on the bad-input corpus', () => {
    const inputs = corpusInputs();
    const tally: Tally = { accepted: 0, refused: 0, fields: new Set() };
    for (const { kind, input, name } of inputs) compare(kind, input, tally, name);
    console.log(
      `corpus: ${inputs.length} params, ${tally.refused} refused, ${tally.accepted} accepted`
    );
    expect(inputs.length).toBeGreaterThan(15);
    expect(tally.refused).toBeGreaterThan(5);
  });

  it('on valid messages of the three dialects', () => {
    const tally: Tally = { accepted: 0, refused: 0, fields: new Set() };
    const samples = validSamples();
    for (const { kind, input } of samples) compare(kind, input, tally, 'sample');
    expect(tally.accepted).toBe(samples.length);
  });

  it('on generated variants', () => {
    const seed = 19;
    const r = mulberry32(seed);
    const samples = validSamples();
    const tally: Tally = { accepted: 0, refused: 0, fields: new Set() };
    const rounds = 10_000;
    for (let n = 0; n < rounds; n++) {
      const { kind, input } = r.pick(samples);
      let v = input;
      for (let k = r.between(1, 3); k > 0; k--) v = mutate(r, v);
      compare(kind, v, tally, `seed ${seed} round ${n}`);
    }
    console.log(
      `variants: ${rounds}, ${tally.accepted} accepted, ${tally.refused} refused over ` +
        `${tally.fields.size} distinct fields`
    );
    // Both sides of the line are exercised, at many fields.
    expect(tally.accepted).toBeGreaterThan(rounds / 20);
    expect(tally.refused).toBeGreaterThan(rounds / 4);
    expect(tally.fields.size).toBeGreaterThan(40);
  }, 60_000);
});

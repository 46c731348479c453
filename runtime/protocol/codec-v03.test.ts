// A2A v0.3 codec against the official SDK: the encoders' output is assigned to @a2a-js/sdk's own
// v0.3 wire types (a shape mismatch fails to compile), then run through its v0.3 → v1.0
// translator and back (V03PushNotificationSerializer), which must give the same JSON.
import { legacyPushNotificationToV1StreamResponse } from '@a2a-js/sdk/compat/v0_3';
import {
  V03PushNotificationSerializer,
  type LegacyRestTransportHandler,
} from '@a2a-js/sdk/compat/v0_3/server';
import { Role, TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import {
  encodeMessageV03,
  encodeStreamEventV03,
  encodeTaskV03,
  type V03StreamEvent,
} from './codec-v03.js';
import { MessageInput } from './hub-schema.js';
import type { Message, Part, Task, TaskEventRecord } from './model.js';

// The SDK's v0.3 JSON types are not exported by name; its v0.3 REST handler's signatures carry them.
type SdkV03Task = Awaited<ReturnType<LegacyRestTransportHandler['getTask']>>;
type SdkV03SendResult = Awaited<ReturnType<LegacyRestTransportHandler['sendMessage']>>;
type SdkV03Message = Extract<SdkV03SendResult, { kind: 'message' }>;
type SdkV03Event =
  Awaited<ReturnType<LegacyRestTransportHandler['sendMessageStream']>> extends AsyncGenerator<
    infer E
  >
    ? E
    : never;

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);
const PNG = 'iVBORw0KGgo=';

const PARTS: Part[] = [
  { kind: 'text', text: 'caption', metadata: { lang: 'en' } },
  { kind: 'file', mimeType: 'image/png', name: 'c.png', data: PNG },
  { kind: 'file', mimeType: 'application/pdf', uri: 'https://files.example/x.pdf' },
  { kind: 'data', mimeType: 'application/json', data: '{"rows":[1,2]}' },
  { kind: 'data', mimeType: 'application/json', data: '[1,2]' },
];

function message(id: string, role: Message['role'], parts: Part[]): Message {
  return { role, parts, messageId: id, contextId: 'ctx-1', taskId: 'task-1' };
}

function task(over: Partial<Task> = {}): Task {
  const events: TaskEventRecord[] = [
    { rev: 1, type: 'status', status: { state: 'working', timestamp: T0 + 10 } },
    { rev: 2, type: 'artifact', artifactId: 'a1', append: false, lastChunk: true, parts: PARTS },
    { rev: 3, type: 'message', message: message('m2', 'agent', [{ kind: 'text', text: 'here' }]) },
    {
      rev: 4,
      type: 'status',
      status: { state: 'input-required', timestamp: T0 + 15, message: 'which?' },
    },
    { rev: 5, type: 'status', status: { state: 'completed', timestamp: T0 + 20 } },
  ];
  return {
    id: 'task-1',
    contextId: 'ctx-1',
    senderId: 'agent-000000000001',
    recipientId: 'agent-echo-official',
    senderTenantId: 'tn-1',
    recipientTenantId: 'tn-2',
    createdAt: T0,
    status: { state: 'completed', timestamp: T0 + 20, message: 'done' },
    messages: [
      message('m1', 'user', [{ kind: 'text', text: 'chart please' }]),
      message('m2', 'agent', [{ kind: 'text', text: 'here' }]),
    ],
    artifacts: [{ artifactId: 'a1', name: 'chart', parts: PARTS }],
    events,
    rev: 5,
    ...over,
  };
}

/** The SDK's v0.3 → v1.0 → v0.3 trip, as its push-notification path runs it. */
function throughSdk(event: V03StreamEvent): unknown {
  const core = legacyPushNotificationToV1StreamResponse(event);
  return JSON.parse(new V03PushNotificationSerializer().serialize(core).body) as unknown;
}

/** The SDK leaves out empty history/artifacts lists. */
function withoutEmptyLists(value: object): unknown {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => !(Array.isArray(v) && v.length === 0))
  );
}

describe('encodeTaskV03', () => {
  it('has the SDK v0.3 types', () => {
    const t: SdkV03Task = encodeTaskV03(task());
    const m: SdkV03Message = encodeMessageV03(message('m1', 'user', PARTS));
    const events: SdkV03Event[] = task().events.map((e) => encodeStreamEventV03(task(), e));
    expect([t.kind, m.kind, events.length]).toEqual(['task', 'message', 5]);
  });

  it('writes kind on task, message and parts; files and data as v0.3 does', () => {
    expect(encodeTaskV03(task())).toEqual({
      kind: 'task',
      id: 'task-1',
      contextId: 'ctx-1',
      status: {
        state: 'completed',
        timestamp: '2025-01-02T03:04:05.020Z',
        message: {
          kind: 'message',
          messageId: `status-task-1-${T0 + 20}`,
          role: 'agent',
          parts: [{ kind: 'text', text: 'done' }],
          contextId: 'ctx-1',
          taskId: 'task-1',
        },
      },
      artifacts: [
        {
          artifactId: 'a1',
          name: 'chart',
          parts: [
            { kind: 'text', text: 'caption', metadata: { lang: 'en' } },
            { kind: 'file', file: { bytes: PNG, mimeType: 'image/png', name: 'c.png' } },
            {
              kind: 'file',
              file: { uri: 'https://files.example/x.pdf', mimeType: 'application/pdf' },
            },
            { kind: 'data', data: { rows: [1, 2] } },
            { kind: 'data', data: { value: [1, 2] }, metadata: { data_part_compat: true } },
          ],
        },
      ],
      history: [
        {
          kind: 'message',
          messageId: 'm1',
          role: 'user',
          parts: [{ kind: 'text', text: 'chart please' }],
          contextId: 'ctx-1',
          taskId: 'task-1',
        },
        {
          kind: 'message',
          messageId: 'm2',
          role: 'agent',
          parts: [{ kind: 'text', text: 'here' }],
          contextId: 'ctx-1',
          taskId: 'task-1',
        },
      ],
    });
  });

  it('survives the SDK translation to v1.0 and back unchanged', () => {
    const wire = encodeTaskV03(task());
    const core = legacyPushNotificationToV1StreamResponse(wire);
    expect(core.payload?.$case).toBe('task');
    if (core.payload?.$case !== 'task') return;
    expect(core.payload.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(core.payload.value.history.map((m) => m.role)).toEqual([
      Role.ROLE_USER,
      Role.ROLE_AGENT,
    ]);
    const dataPart = core.payload.value.artifacts[0]?.parts[4];
    expect(dataPart?.content).toEqual({ $case: 'data', value: [1, 2] });
    expect(throughSdk(wire)).toEqual(withoutEmptyLists(wire));
  });

  it('applies historyLength', () => {
    expect(encodeTaskV03(task(), { historyLength: 0 }).history).toEqual([]);
    expect(encodeTaskV03(task(), { historyLength: 1 }).history.map((m) => m.messageId)).toEqual([
      'm2',
    ]);
  });
});

describe('v0.3 stream events', () => {
  it('writes status-update with final, artifact-update, and messages', () => {
    const t = task();
    const events = t.events.map((e) => encodeStreamEventV03(t, e));
    expect(events.map((e) => e.kind)).toEqual([
      'status-update',
      'artifact-update',
      'message',
      'status-update',
      'status-update',
    ]);
    expect(events.map((e) => (e.kind === 'status-update' ? e.final : null))).toEqual([
      false,
      null,
      null,
      false,
      true,
    ]);
    expect(events[1]).toMatchObject({
      kind: 'artifact-update',
      taskId: 'task-1',
      contextId: 'ctx-1',
      artifact: { artifactId: 'a1', name: 'chart' },
      append: false,
      lastChunk: true,
    });
    for (const e of events) expect(throughSdk(e)).toEqual(e);
  });
});

describe('v0.3 parts read back by the tolerant input', () => {
  it('gives the same model parts', () => {
    const back = MessageInput.parse(encodeMessageV03(message('m9', 'agent', PARTS)));
    expect(back).toEqual(message('m9', 'agent', PARTS));
  });
});

// A2A v1.0 codec against the official SDK: @a2a-js/sdk 1.3's TypeScript types are its decoded
// protobuf forms, so the check is at run time: its ProtoJSON fromJSON must read every field we
// write (toJSON(fromJSON(x)) gives x back, minus the defaults ProtoJSON leaves out).
import {
  ListTasksResponse,
  Role,
  SendMessageResponse,
  StreamResponse,
  Task as SdkTask,
  TaskState,
} from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import {
  encodeListTasksV1,
  encodeMessageV1,
  encodePartV1,
  encodeSendResultV1,
  encodeStreamEventV1,
  encodeStreamTaskV1,
  encodeTaskV1,
} from './codec-v1.js';
import { MessageInput } from './hub-schema.js';
import type { Message, Part, Task, TaskEventRecord } from './model.js';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);
const PNG = 'iVBORw0KGgo=';

const PARTS: Part[] = [
  { kind: 'text', text: 'caption', metadata: { lang: 'en' } },
  { kind: 'file', mimeType: 'image/png', name: 'c.png', data: PNG },
  { kind: 'file', mimeType: 'application/pdf', uri: 'https://files.example/x.pdf' },
  { kind: 'data', mimeType: 'application/json', data: '{"rows":[1,2],"ok":true}' },
  { kind: 'data', mimeType: 'text/csv', data: 'a,b\n1,2' },
];

function message(id: string, role: Message['role'], parts: Part[]): Message {
  return { role, parts, messageId: id, contextId: 'ctx-1', taskId: 'task-1' };
}

function task(over: Partial<Task> = {}): Task {
  const events: TaskEventRecord[] = [
    { rev: 1, type: 'status', status: { state: 'submitted', timestamp: T0 } },
    { rev: 2, type: 'status', status: { state: 'working', timestamp: T0 + 10 } },
    {
      rev: 3,
      type: 'artifact',
      artifactId: 'a1',
      append: false,
      lastChunk: false,
      parts: PARTS.slice(0, 2),
    },
    {
      rev: 4,
      type: 'artifact',
      artifactId: 'a1',
      append: true,
      lastChunk: true,
      parts: PARTS.slice(2),
    },
    { rev: 5, type: 'message', message: message('m2', 'agent', [{ kind: 'text', text: 'here' }]) },
    { rev: 6, type: 'status', status: { state: 'completed', timestamp: T0 + 20, message: 'done' } },
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
    artifacts: [{ artifactId: 'a1', name: 'chart', mimeType: 'image/png', parts: PARTS }],
    events,
    rev: 6,
    ...over,
  };
}

/** What ProtoJSON's toJSON writes for a value: no empty lists, false, '' (Struct values kept). */
function protoCanonical(value: unknown, key = ''): unknown {
  if (key === 'metadata' || key === 'data') return value;
  if (Array.isArray(value)) return value.map((v) => protoCanonical(v));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v === false || v === '' || (Array.isArray(v) && v.length === 0))
      continue;
    out[k] = protoCanonical(v, k);
  }
  return out;
}

describe('encodeTaskV1', () => {
  it('writes ProtoJSON field names, enums and part shapes', () => {
    expect(encodeTaskV1(task())).toEqual({
      id: 'task-1',
      contextId: 'ctx-1',
      status: {
        state: 'TASK_STATE_COMPLETED',
        timestamp: '2025-01-02T03:04:05.020Z',
        message: {
          messageId: `status-task-1-${T0 + 20}`,
          role: 'ROLE_AGENT',
          parts: [{ text: 'done' }],
          contextId: 'ctx-1',
          taskId: 'task-1',
        },
      },
      artifacts: [
        {
          artifactId: 'a1',
          name: 'chart',
          parts: [
            { text: 'caption', metadata: { lang: 'en' } },
            { raw: PNG, mediaType: 'image/png', filename: 'c.png' },
            { url: 'https://files.example/x.pdf', mediaType: 'application/pdf' },
            { data: { rows: [1, 2], ok: true }, mediaType: 'application/json' },
            { data: 'a,b\n1,2', mediaType: 'text/csv' },
          ],
        },
      ],
      history: [
        {
          messageId: 'm1',
          role: 'ROLE_USER',
          parts: [{ text: 'chart please' }],
          contextId: 'ctx-1',
          taskId: 'task-1',
        },
        {
          messageId: 'm2',
          role: 'ROLE_AGENT',
          parts: [{ text: 'here' }],
          contextId: 'ctx-1',
          taskId: 'task-1',
        },
      ],
    });
  });

  it('is read field for field by the SDK (Task.fromJSON/toJSON)', () => {
    const wire = encodeTaskV1(task());
    const decoded = SdkTask.fromJSON(wire);
    expect(decoded.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(decoded.status?.message?.role).toBe(Role.ROLE_AGENT);
    expect(decoded.history.map((m) => m.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT]);
    const parts = decoded.artifacts[0]?.parts ?? [];
    expect(parts.map((p) => p.content?.$case)).toEqual(['text', 'raw', 'url', 'data', 'data']);
    expect(parts[1]?.filename).toBe('c.png');
    expect(Buffer.from((parts[1]?.content?.value as Buffer) ?? []).toString('base64')).toBe(PNG);
    expect(SdkTask.toJSON(decoded)).toEqual(protoCanonical(wire));
  });

  it('maps every state', () => {
    const states = [
      'submitted',
      'working',
      'input-required',
      'completed',
      'failed',
      'canceled',
      'rejected',
    ] as const;
    for (const state of states) {
      const wire = encodeTaskV1(task({ status: { state, timestamp: T0 } }));
      expect(TaskState[SdkTask.fromJSON(wire).status?.state ?? TaskState.UNRECOGNIZED]).toBe(
        wire.status.state
      );
    }
  });

  it('applies historyLength and includeArtifacts', () => {
    expect(encodeTaskV1(task(), { historyLength: 0 }).history).toEqual([]);
    expect(encodeTaskV1(task(), { historyLength: 1 }).history.map((m) => m.messageId)).toEqual([
      'm2',
    ]);
    expect(encodeTaskV1(task(), { includeArtifacts: false }).artifacts).toEqual([]);
  });
});

describe('v1 results and stream events', () => {
  it('wraps the SendMessage result as {task}', () => {
    const wire = encodeSendResultV1(task());
    const decoded = SendMessageResponse.fromJSON(wire);
    expect(decoded.payload?.$case).toBe('task');
    expect(SendMessageResponse.toJSON(decoded)).toEqual(protoCanonical(wire));
  });

  it('writes each event as one StreamResponse case', () => {
    const t = task();
    const events = [encodeStreamTaskV1(t), ...t.events.map((e) => encodeStreamEventV1(t, e))];
    const decoded = events.map((e) => StreamResponse.fromJSON(e));
    expect(decoded.map((d) => d.payload?.$case)).toEqual([
      'task',
      'statusUpdate',
      'statusUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'message',
      'statusUpdate',
    ]);
    decoded.forEach((d, i) => expect(StreamResponse.toJSON(d)).toEqual(protoCanonical(events[i])));

    expect(events[3]).toEqual({
      artifactUpdate: {
        taskId: 'task-1',
        contextId: 'ctx-1',
        artifact: { artifactId: 'a1', name: 'chart', parts: PARTS.slice(0, 2).map(encodePartV1) },
        append: false,
        lastChunk: false,
      },
    });
    const last = decoded[6]?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED
    );
    expect(events[6]).not.toHaveProperty('statusUpdate.final');
  });

  it('lists tasks as {tasks, nextPageToken, pageSize, totalSize}', () => {
    const wire = encodeListTasksV1([task()], { nextPageToken: 'p2', pageSize: 1, totalSize: 3 });
    expect(Object.keys(wire).sort()).toEqual(['nextPageToken', 'pageSize', 'tasks', 'totalSize']);
    expect(ListTasksResponse.toJSON(ListTasksResponse.fromJSON(wire))).toEqual(
      protoCanonical(wire)
    );
  });
});

describe('v1 parts read back by the tolerant input', () => {
  it('gives the same model parts', () => {
    const wire = encodeMessageV1(message('m9', 'agent', PARTS));
    const back = MessageInput.parse(wire);
    expect(back).toEqual(message('m9', 'agent', PARTS));
  });
});

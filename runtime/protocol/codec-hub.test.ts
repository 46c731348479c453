// The hub dialect's Task (spec "Task"; decisions.md §1): lowercase states, ISO timestamps, parts
// with kind/mimeType, messages also as history, historyLength, the status message as text, and
// the SSE wrappers of decisions.md §11.
import { describe, expect, it } from 'vitest';
import {
  encodeListTasksHub,
  encodeStreamEventHub,
  encodeStreamTaskHub,
  encodeTaskHub,
} from './codec-hub.js';
import { applyHistoryLength } from './history.js';
import type { Message, Task } from './model.js';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);

function message(n: number, role: Message['role']): Message {
  return {
    role,
    parts: [{ kind: 'text', text: `m${n}` }],
    messageId: `m${n}`,
    contextId: 'ctx-1',
    taskId: 'task-1',
  };
}

function task(over: Partial<Task> = {}): Task {
  return {
    id: 'task-1',
    contextId: 'ctx-1',
    senderId: 'agent-000000000001',
    recipientId: 'agent-echo-official',
    senderTenantId: 'tn-1',
    recipientTenantId: 'tn-2',
    createdAt: T0,
    status: { state: 'completed', timestamp: T0 + 1500, message: 'all done' },
    messages: [message(1, 'user'), message(2, 'agent'), message(3, 'user')],
    artifacts: [
      {
        artifactId: 'a1',
        name: 'chart',
        mimeType: 'image/png',
        parts: [
          { kind: 'file', mimeType: 'image/png', name: 'c.png', data: 'iVBORw0KGgo=' },
          { kind: 'data', mimeType: 'text/csv', data: 'a,b' },
        ],
      },
    ],
    events: [],
    rev: 1,
    ...over,
  };
}

describe('encodeTaskHub', () => {
  it('writes the spec shape', () => {
    const t = encodeTaskHub(task());
    expect(t).toEqual({
      kind: 'task',
      id: 'task-1',
      contextId: 'ctx-1',
      status: {
        state: 'completed',
        timestamp: '2025-01-02T03:04:06.500Z',
        // A string, as the hub clients declare it (decisions.md §11).
        message: 'all done',
      },
      messages: t.history,
      history: t.messages,
      artifacts: [
        {
          artifactId: 'a1',
          id: 'a1',
          name: 'chart',
          mimeType: 'image/png',
          parts: [
            { kind: 'file', mimeType: 'image/png', name: 'c.png', data: 'iVBORw0KGgo=' },
            { kind: 'data', mimeType: 'text/csv', data: 'a,b' },
          ],
        },
      ],
      metadata: { agentId: 'agent-echo-official' },
    });
    expect(t.messages.map((m) => [m.kind, m.role, m.messageId])).toEqual([
      ['message', 'user', 'm1'],
      ['message', 'agent', 'm2'],
      ['message', 'user', 'm3'],
    ]);
  });

  it('leaves out the status message when there is no status text', () => {
    const t = encodeTaskHub(task({ status: { state: 'submitted', timestamp: T0 } }));
    expect(t.status).toEqual({ state: 'submitted', timestamp: '2025-01-02T03:04:05.000Z' });
  });

  it('applies historyLength to messages and history alike', () => {
    expect(encodeTaskHub(task(), { historyLength: 0 }).messages).toEqual([]);
    expect(encodeTaskHub(task(), { historyLength: 0 }).history).toEqual([]);
    expect(encodeTaskHub(task(), { historyLength: 2 }).history.map((m) => m.messageId)).toEqual([
      'm2',
      'm3',
    ]);
    expect(encodeTaskHub(task(), { historyLength: 10 }).messages).toHaveLength(3);
    expect(encodeTaskHub(task()).messages).toHaveLength(3);
  });

  it('lists tasks with the page fields', () => {
    const page = encodeListTasksHub(
      [task()],
      { nextPageToken: '', pageSize: 50, totalSize: 1 },
      {
        includeArtifacts: false,
      }
    );
    expect(page).toMatchObject({ nextPageToken: '', pageSize: 50, totalSize: 1 });
    expect(page.tasks[0]?.artifacts).toEqual([]);
  });
});

describe('hub stream events', () => {
  const ids = { taskId: 'task-1', contextId: 'ctx-1' };

  it('wraps each event in exactly one of task, statusUpdate, artifactUpdate, message', () => {
    const t = task();
    expect(Object.keys(encodeStreamTaskHub(t))).toEqual(['task']);
    expect(encodeStreamTaskHub(t, { historyLength: 0 })).toMatchObject({
      task: { kind: 'task', status: { message: 'all done' }, messages: [] },
    });
    const status = { state: 'failed', timestamp: T0 + 2000, message: 'no such city' } as const;
    expect(encodeStreamEventHub(t, { rev: 2, type: 'status', status }, true)).toEqual({
      statusUpdate: {
        ...ids,
        status: { state: 'failed', timestamp: '2025-01-02T03:04:07.000Z', message: 'no such city' },
        final: true,
      },
    });
    const chunk = { kind: 'text', text: 'more' } as const;
    expect(
      encodeStreamEventHub(
        t,
        {
          rev: 3,
          type: 'artifact',
          artifactId: 'a1',
          append: true,
          lastChunk: false,
          parts: [chunk],
        },
        false
      )
    ).toEqual({
      artifactUpdate: {
        ...ids,
        artifact: {
          artifactId: 'a1',
          id: 'a1',
          name: 'chart',
          mimeType: 'image/png',
          parts: [chunk],
        },
        append: true,
        lastChunk: false,
      },
    });
    expect(
      encodeStreamEventHub(t, { rev: 4, type: 'message', message: message(4, 'agent') }, false)
    ).toEqual({ message: { kind: 'message', ...message(4, 'agent') } });
  });
});

describe('applyHistoryLength', () => {
  it('0 gives none, n the last n, undefined all', () => {
    expect(applyHistoryLength([1, 2, 3], 0)).toEqual([]);
    expect(applyHistoryLength([1, 2, 3], 1)).toEqual([3]);
    expect(applyHistoryLength([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(applyHistoryLength([1, 2, 3])).toEqual([1, 2, 3]);
  });
});

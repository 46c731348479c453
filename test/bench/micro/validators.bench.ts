// The params readers of the hot path, zod against hand-written (issue 19, Must 4):
//   node --import tsx test/bench/micro/validators.bench.ts
// Each row reads one JSON value as the hub does (the value is parsed once, outside the loop).
import {
  SendMessageParams,
  TaskRespondParams,
  parseParams,
  readSendMessageParams,
  readTaskRespondParams,
} from '../../../runtime/protocol/index.js';
import { measure, report, thrown, type Timing } from './measure.js';

const hubSend = {
  message: { role: 'user', parts: [{ kind: 'text', text: 'hello there' }], messageId: 'm-1' },
  configuration: { agentId: 'agent-echo', blocking: true },
};
const v1Send = {
  message: {
    role: 'ROLE_USER',
    messageId: 'm-2',
    contextId: 'ctx-1',
    parts: [{ text: 'hello' }, { data: { a: 1, b: [1, 2] }, mediaType: 'application/json' }],
    metadata: { trace: 'abc' },
  },
  configuration: {
    acceptedOutputModes: ['text/plain'],
    returnImmediately: false,
    historyLength: 2,
  },
};
const v03Send = {
  message: {
    kind: 'message',
    role: 'user',
    messageId: 'm-3',
    parts: [
      { kind: 'text', text: 'see file' },
      { kind: 'file', file: { bytes: 'iVBORw0KGgo=', mimeType: 'image/png', name: 'x.png' } },
    ],
  },
};
const answerFrame = {
  type: 'task_response',
  taskId: 'task-0123456789',
  status: { state: 'completed', message: 'done' },
  artifact: { artifactId: 'a-1', parts: [{ kind: 'text', text: 'echo: hello there' }] },
};
const badSend = { message: { role: 'user', parts: [{ kind: 'text', text: 5 }] } };

const rows: Timing[] = [];
for (const [name, input] of [
  ['hub SendMessage', hubSend],
  ['v1 SendMessage', v1Send],
  ['v0.3 message/send', v03Send],
] as const) {
  rows.push(measure(`${name}  zod`, () => parseParams(SendMessageParams, input)));
  rows.push(measure(`${name}  hand-written`, () => readSendMessageParams(input)));
}
rows.push(measure('task_response frame  zod', () => parseParams(TaskRespondParams, answerFrame)));
rows.push(measure('task_response frame  hand-written', () => readTaskRespondParams(answerFrame)));
rows.push(
  measure('refused SendMessage  zod', () => thrown(() => parseParams(SendMessageParams, badSend)))
);
rows.push(
  measure('refused SendMessage  hand-written', () => thrown(() => readSendMessageParams(badSend)))
);
report(rows);

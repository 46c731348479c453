// The hot path's reader of an agent's answer: the task_response WebSocket frame and task/respond
// params (decisions.md §2, §3). hub-schema's TaskRespondParams without zod, same fields, same
// order, same refusals (respond-check.test.ts runs both).
import type { ArtifactInput, RespondState, TaskRespondParams } from './hub-schema.js';
import { RespondStates, newArtifactId, textOf } from './hub-schema.js';
import {
  fieldAt,
  isObject,
  readId,
  readOptId,
  readOptString,
  readString,
  refuse,
  wrongType,
} from './input-check.js';
import { readParts } from './send-check.js';

const RESPOND_STATES: ReadonlyMap<string, RespondState> = new Map([
  ['completed', 'completed'],
  ['failed', 'failed'],
  ['input-required', 'input-required'],
  ['rejected', 'rejected'],
  ['working', 'working'],
  ['TASK_STATE_COMPLETED', 'completed'],
  ['TASK_STATE_FAILED', 'failed'],
  ['TASK_STATE_INPUT_REQUIRED', 'input-required'],
  ['TASK_STATE_REJECTED', 'rejected'],
  ['TASK_STATE_WORKING', 'working'],
]);
const STATE_CHOICES = `must be one of ${RespondStates.join(', ')}`;
const STATUS_TEXT = 'must be a string (or a message with text parts)';

/** The frame or params object; absent params read as `{}`. Throws InvalidParamsError. */
export function readTaskRespondParams(params: unknown): TaskRespondParams {
  const p = params === undefined ? {} : params;
  if (!isObject(p)) return wrongType('', 'an object', p);
  const taskId = readId(p.taskId, 'taskId');
  const status = readStatus(p.status);
  const artifact = p.artifact === undefined ? undefined : readArtifact(p.artifact, 'artifact');
  const lastChunk = p.lastChunk === undefined ? true : p.lastChunk;
  if (typeof lastChunk !== 'boolean') return wrongType('lastChunk', 'a boolean', lastChunk);
  return { taskId, status, ...(artifact !== undefined ? { artifact } : {}), lastChunk };
}

function readStatus(v: unknown): TaskRespondParams['status'] {
  if (!isObject(v)) return wrongType('status', 'an object', v);
  const state = RESPOND_STATES.get(readString(v.state, 'status.state'));
  if (state === undefined) return refuse('status.state', STATE_CHOICES);
  if (v.message === undefined) return { state };
  return { state, message: readStatusText(v.message) };
}

/** The status text: a string, or a message whose text parts are joined by spaces. */
function readStatusText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!isObject(v)) return refuse('status.message', STATUS_TEXT);
  try {
    return textOf(readParts(v.parts, 'status.message.parts', false));
  } catch {
    return refuse('status.message', STATUS_TEXT);
  }
}

/** hub-schema's ArtifactInput: its id from `artifactId`, the spec's `id`, or made up. */
export function readArtifact(v: unknown, at: string): ArtifactInput {
  if (!isObject(v)) return wrongType(at, 'an object', v);
  const artifactId = readOptId(v.artifactId, fieldAt(at, 'artifactId'));
  const id = readOptId(v.id, fieldAt(at, 'id'));
  const name = readOptString(v.name, fieldAt(at, 'name'));
  const mimeType = readOptString(v.mimeType, fieldAt(at, 'mimeType'));
  const parts = readParts(v.parts, fieldAt(at, 'parts'), true);
  return {
    artifactId: artifactId ?? id ?? newArtifactId(),
    ...(name !== undefined ? { name } : {}),
    ...(mimeType !== undefined ? { mimeType } : {}),
    parts,
  };
}

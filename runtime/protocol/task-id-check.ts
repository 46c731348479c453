// The hot path's readers of the params that name one task (GetTask, CancelTask, SubscribeToTask):
// hub-schema's schemas without zod, same fields, same order, same refusals (input-check.test.ts).
import type { CancelTaskParams, GetTaskParams, SubscribeToTaskParams } from './hub-schema.js';
import {
  isObject,
  readId,
  readOptCount,
  readOptMetadata,
  wrongType,
  type Json,
} from './input-check.js';

function paramsObject(params: unknown): Json {
  const p = params === undefined ? {} : params;
  if (!isObject(p)) return wrongType('', 'an object', p);
  return p;
}

export function readGetTaskParams(params: unknown): GetTaskParams {
  const p = paramsObject(params);
  const id = readId(p.id, 'id');
  const historyLength = readOptCount(p.historyLength, 'historyLength');
  return historyLength === undefined ? { id } : { id, historyLength };
}

export function readCancelTaskParams(params: unknown): CancelTaskParams {
  const p = paramsObject(params);
  const id = readId(p.id, 'id');
  const metadata = readOptMetadata(p.metadata, 'metadata');
  return metadata === undefined ? { id } : { id, metadata };
}

export function readSubscribeToTaskParams(params: unknown): SubscribeToTaskParams {
  return { id: readId(paramsObject(params).id, 'id') };
}

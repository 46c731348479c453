// What building an error costs with and without a stack trace (issue 19, Must 4): client errors
// (4xx codes) are built without one, server errors keep theirs.
//   node --import tsx test/bench/micro/errors.bench.ts
import { HubError, InvalidParamsError } from '../../../runtime/errors/index.js';
import { measure, report, thrown } from './measure.js';

/** A few frames deep, as a refusal from inside the params readers is. */
function nested(depth: number, make: () => Error): Error {
  return depth === 0 ? make() : nested(depth - 1, make);
}

report([
  measure('InvalidParamsError (4xx: no stack)', () =>
    nested(8, () => new InvalidParamsError('message.parts.0.text', 'must be a string, got number'))
  ),
  measure('HubError INTERNAL (5xx: stack kept)', () =>
    nested(8, () => new HubError('INTERNAL', 'Invalid params: message.parts.0.text'))
  ),
  measure('plain Error (stack)', () => nested(8, () => new Error('message.parts.0.text'))),
  measure('throw + catch InvalidParamsError', () =>
    thrown(() => {
      throw nested(8, () => new InvalidParamsError('taskId', 'is required'));
    })
  ),
]);

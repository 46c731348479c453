// A management request body: one JSON object whose keys are all known. Unknown keys are 400 naming
// the first, so a typo never silently does nothing (decisions.md §6).
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import { parseJsonObject } from '../http/index.js';

export function readJsonObject(body: Buffer, allowed: readonly string[]): Record<string, unknown> {
  const input = parseJsonObject(
    body,
    () => new HubError('INVALID_REQUEST', 'The body must be a JSON object'),
    { emptyIsObject: true }
  );
  const unknown = Object.keys(input).filter((k) => !allowed.includes(k));
  if (unknown[0] !== undefined) {
    throw new InvalidParamsError(unknown[0], `unknown field; allowed: ${allowed.join(', ')}`, {
      unknown,
    });
  }
  return input;
}

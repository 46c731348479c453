import { describe, expect, it } from 'vitest';
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import { parseJsonObject } from './json-body.js';

const invalid = () => new HubError('INVALID_REQUEST', 'The body must be a JSON object');
const parse = (text: string, emptyIsObject = false) =>
  parseJsonObject(Buffer.from(text), invalid, { emptyIsObject });

/** The field an InvalidParamsError names (its data.field), or the error's code. */
function refusal(text: string): unknown {
  try {
    parse(text);
  } catch (err) {
    if (err instanceof InvalidParamsError) return (err.data as { field?: string }).field;
    if (err instanceof HubError) return err.code;
  }
  return 'accepted';
}

describe('parseJsonObject', () => {
  it('reads a JSON object, and an empty body as {} only when asked', () => {
    expect(parse('{"a":[1,"x"]}')).toEqual({ a: [1, 'x'] });
    expect(parse('', true)).toEqual({});
    expect(refusal('')).toBe('INVALID_REQUEST');
    expect(refusal('[1]')).toBe('INVALID_REQUEST');
    expect(refusal('{')).toBe('INVALID_REQUEST');
  });

  it('refuses a NUL character in any string or key, naming where it is', () => {
    expect(refusal('{"description":"a\\u0000b"}')).toBe('description');
    expect(refusal('{"tags":["ok","x\\u0000"]}')).toBe('tags[1]');
    expect(refusal('{"meta":{"k\\u0000":1}}')).toBe('meta.k\u0000');
    // A backslash followed by "u0000" is text, not a NUL.
    expect(refusal('{"description":"a\\\\u0000b"}')).toBe('accepted');
  });
});

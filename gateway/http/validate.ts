// A REST route's input checked with the very zod schema its doc publishes (RouteDoc.body and
// RouteDoc.query, in GET /openapi.json), so the document and the check cannot drift apart.
// Refusals keep decisions.md §6: 400 INVALID_PARAMS naming the field; an unknown field (strict
// schemas) is named with the ones allowed, so a typo never silently does nothing.
import { z } from 'zod';
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import { describeIssue } from '../../runtime/protocol/index.js';
import { parseJsonObject, rejectNul } from './json-body.js';

const notAnObject = (): HubError =>
  new HubError('INVALID_REQUEST', 'The body must be a JSON object');

/** The JSON object body as `schema` reads it; an empty body is `{}` unless `emptyIsObject` is false. */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: Buffer,
  opts: { emptyIsObject?: boolean } = {}
): z.output<S> {
  return checkBody(schema, jsonObjectBody(body, opts));
}

/** The body as a JSON object, for a route that also needs what was sent as it was sent. */
export function jsonObjectBody(
  body: Buffer,
  opts: { emptyIsObject?: boolean } = {}
): Record<string, unknown> {
  return parseJsonObject(body, notAnObject, { emptyIsObject: opts.emptyIsObject !== false });
}

/** An object body from jsonObjectBody as `schema` reads it. */
export function checkBody<S extends z.ZodType>(
  schema: S,
  input: Record<string, unknown>
): z.output<S> {
  return checkInput(schema, input, 'field');
}

/**
 * The query string as `schema` reads it: one string per name (a name given twice is refused, as
 * its second value would otherwise be dropped without a word).
 */
export function parseQuery<S extends z.ZodType>(schema: S, raw: string): z.output<S> {
  const values: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    if (Object.hasOwn(values, name)) throw new InvalidParamsError(name, 'is given more than once');
    rejectNul(value, name);
    values[name] = value;
  }
  return checkInput(schema, values, 'parameter');
}

function checkInput<S extends z.ZodType>(
  schema: S,
  input: Record<string, unknown>,
  noun: 'field' | 'parameter'
): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues;
  // An unknown name first: the other complaints may only follow from the typo.
  const unknown = issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown !== undefined) {
    const at = unknown.path.map(String);
    const names = unknown.keys.map((k) => [...at, k].join('.'));
    const allowed = at.length === 0 ? shapeKeys(schema) : [];
    const message =
      at.length > 0
        ? `unknown ${noun}`
        : allowed.length > 0
          ? `unknown ${noun}${names.length > 1 ? `s ${names.join(', ')}` : ''}; allowed: ${allowed.join(', ')}`
          : `unknown ${noun}; this route takes none`;
    throw new InvalidParamsError(names[0] ?? noun, message, { unknown: names });
  }
  const issue = issues[0];
  if (issue === undefined) throw new InvalidParamsError(noun, 'invalid');
  // A bad item of a list is named by the list (`events`), its position in the message.
  const path = issue.path.map(String);
  let at = '';
  while (path.length > 1 && /^\d+$/.test(path[path.length - 1] ?? '')) at = `[${path.pop()}]${at}`;
  const field = path.join('.') || (noun === 'field' ? 'body' : 'query');
  const message = describeIssue(issue);
  throw new InvalidParamsError(field, at === '' ? message : `${at} ${message}`);
}

function shapeKeys(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

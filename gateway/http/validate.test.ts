// Route input checked with the doc's own zod schema: the refusals name the field as the REST error
// body of decisions.md §6 does, and what passes is the schema's output.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseBody, parseQuery } from './validate.js';

const Body = z.strictObject({
  name: z.string().max(5),
  events: z.array(z.enum(['a', 'b'])).optional(),
  limit: z.number().int().nullable().optional(),
});
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

function refusal(run: () => unknown): { code: string; message: string; data: unknown } {
  try {
    run();
  } catch (e) {
    return e as { code: string; message: string; data: unknown };
  }
  throw new Error('not refused');
}

describe('parseBody', () => {
  it('answers the schema output', () => {
    expect(parseBody(Body, json({ name: 'x', limit: null }))).toEqual({ name: 'x', limit: null });
  });

  it('names unknown fields, all of them, with the ones allowed', () => {
    const e = refusal(() => parseBody(Body, json({ name: 'x', colour: 1, size: 2 })));
    expect(e.code).toBe('INVALID_PARAMS');
    expect(e.data).toMatchObject({ field: 'colour', unknown: ['colour', 'size'] });
    expect(e.message).toBe(
      'Invalid params: colour: unknown fields colour, size; allowed: name, events, limit'
    );
  });

  it('names a missing or mistyped field, and a bad list item by its list', () => {
    expect(refusal(() => parseBody(Body, json({}))).message).toBe(
      'Invalid params: name: is required'
    );
    expect(refusal(() => parseBody(Body, json({ name: 7 }))).data).toMatchObject({
      field: 'name',
    });
    const item = refusal(() => parseBody(Body, json({ name: 'x', events: ['a', 'z'] })));
    expect(item.data).toMatchObject({ field: 'events' });
    expect(item.message).toBe('Invalid params: events: [1] must be one of "a", "b"');
  });

  it('refuses a body that is not a JSON object; an empty one is {} unless told otherwise', () => {
    expect(refusal(() => parseBody(Body, Buffer.from('[1]'))).code).toBe('INVALID_REQUEST');
    expect(refusal(() => parseBody(Body, Buffer.alloc(0))).message).toMatch(/name: is required/);
    const empty = refusal(() => parseBody(Body, Buffer.alloc(0), { emptyIsObject: false }));
    expect(empty.code).toBe('INVALID_REQUEST');
  });
});

describe('parseQuery', () => {
  const Query = z.strictObject({ q: z.string().optional() });

  it('reads one string per name', () => {
    expect(parseQuery(Query, 'q=hi')).toEqual({ q: 'hi' });
    expect(parseQuery(Query, '')).toEqual({});
  });

  it('refuses a name given twice, an unknown one, and any on a route that takes none', () => {
    expect(refusal(() => parseQuery(Query, 'q=a&q=b')).message).toMatch(/q: is given more/);
    expect(refusal(() => parseQuery(Query, 'x=1')).message).toBe(
      'Invalid params: x: unknown parameter; allowed: q'
    );
    expect(refusal(() => parseQuery(z.strictObject({}), 'x=1')).message).toBe(
      'Invalid params: x: unknown parameter; this route takes none'
    );
  });
});

// A whole-number query parameter: read from its digits only, refused naming the parameter
// otherwise, and published in the API document as an integer with its range.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchema } from '../openapi/index.js';
import { queryInteger } from './query-schemas.js';
import { parseQuery } from './validate.js';

const Query = z.strictObject({ limit: queryInteger(1, 200).optional() });

function refusal(raw: string): string {
  try {
    parseQuery(Query, raw);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${raw} was not refused`);
}

describe('queryInteger', () => {
  it('reads decimal digits as the number', () => {
    expect(parseQuery(Query, 'limit=1')).toEqual({ limit: 1 });
    expect(parseQuery(Query, 'limit=200')).toEqual({ limit: 200 });
    expect(parseQuery(Query, 'limit=007')).toEqual({ limit: 7 });
    expect(parseQuery(Query, '')).toEqual({});
  });

  it.each(['', 'abc', '1.5', '-1', '+5', '1e2', '0x10', ' 5', '9'.repeat(40)])(
    'refuses limit=%j as not a whole number, naming limit',
    (value) => {
      expect(refusal(`limit=${encodeURIComponent(value)}`)).toBe(
        'Invalid params: limit: must be a whole number from 1 to 200'
      );
    }
  );

  it('refuses a number out of range with the bound it passed', () => {
    expect(refusal('limit=0')).toBe('Invalid params: limit: must be at least 1');
    expect(refusal('limit=201')).toBe('Invalid params: limit: must be at most 200');
  });

  it('is published as an integer with its range', () => {
    expect(jsonSchema(Query, 'input')).toMatchObject({
      properties: { limit: { type: 'integer', minimum: 1, maximum: 200 } },
    });
  });
});

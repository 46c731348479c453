import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer-token.js';

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['Bearer \t abc \t', 'abc'],
    ['Bearer bk_x-y_z', 'bk_x-y_z'],
  ])('reads %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'Bearerabc',
    'Basic abc',
    'Bearer a b',
    'Bearer a\u0000',
    ' Bearer abc',
    'Bearor abc',
  ])('refuses %j', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});

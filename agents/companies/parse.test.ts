import { describe, expect, it } from 'vitest';
import { lookupFromText, officersFromText, presenceFromText } from './parse.js';

describe('companies plain language', () => {
  it('reads lookup, officers and presence', () => {
    expect(lookupFromText('look up Pfizer')).toEqual({ company: 'Pfizer' });
    expect(lookupFromText('LEI of Apple Inc.')).toEqual({ company: 'Apple Inc' });
    expect(lookupFromText('hello')).toBeUndefined();
    expect(officersFromText('officers of Pfizer')).toEqual({ company: 'Pfizer' });
    expect(officersFromText('company 00526209 directors')).toEqual({ companyNumber: '00526209' });
    expect(officersFromText('officers')).toBeUndefined();
    expect(presenceFromText('which datasets hold Pfizer')).toEqual({ company: 'Pfizer' });
    expect(presenceFromText('data presence of Acme Chemical')).toEqual({
      company: 'Acme Chemical',
    });
  });
});

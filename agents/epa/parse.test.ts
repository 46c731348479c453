import { describe, expect, it } from 'vitest';
import {
  CompanyInput,
  companyFromText,
  placeOf,
  searchFromText,
  stateFromText,
  violatorsFromText,
} from './parse.js';
import { stateCode, trailingState } from './states.js';

describe('states', () => {
  it('reads codes and names', () => {
    expect(stateCode('tx')).toBe('TX');
    expect(stateCode('New  York')).toBe('NY');
    expect(stateCode('Narnia')).toBeUndefined();
    expect(trailingState('Charleston, West Virginia')).toEqual({ code: 'WV', index: 12 });
    expect(trailingState('Houston, TX')).toEqual({ code: 'TX', index: 9 });
    expect(trailingState('plants in')).toBeUndefined();
  });

  it('reads a place', () => {
    expect(placeOf('Houston, TX')).toEqual({ city: 'Houston', state: 'TX' });
    expect(placeOf('Ohio')).toEqual({ state: 'OH' });
    expect(placeOf('77001')).toEqual({ zip: '77001' });
    expect(placeOf('Springfield')).toEqual({ city: 'Springfield' });
  });
});

describe('plain-language epa requests', () => {
  it('reads violators with a place or a name', () => {
    expect(violatorsFromText('significant violators in Ohio')).toEqual({
      state: 'OH',
      significantOnly: true,
    });
    expect(violatorsFromText('facilities in violation in Houston, TX')).toEqual({
      city: 'Houston',
      state: 'TX',
    });
    expect(violatorsFromText('violations by Acme Chemical')).toEqual({ name: 'Acme Chemical' });
    expect(violatorsFromText('violators')).toBeUndefined();
    expect(violatorsFromText('facilities in Texas')).toBeUndefined();
  });

  it('reads a company, with a state', () => {
    expect(companyFromText('facilities owned by Acme in Texas')).toEqual({
      company: 'Acme',
      state: 'TX',
    });
    expect(companyFromText('ExxonMobil’s facilities')).toEqual({ company: 'ExxonMobil' });
    expect(companyFromText('Acme')).toBeUndefined();
    expect(CompanyInput.safeParse({ company: 'x', state: 'Narnia' }).success).toBe(false);
  });

  it('reads a state overview only when the place is a whole state', () => {
    expect(stateFromText('facilities in Texas')).toEqual({ state: 'TX' });
    expect(stateFromText('EPA facilities in the state of Ohio')).toBeUndefined();
    expect(stateFromText('OH')).toEqual({ state: 'OH' });
    expect(stateFromText('facilities in Houston, TX')).toBeUndefined();
  });

  it('searches by place, ZIP or name', () => {
    expect(searchFromText('facilities in Houston, TX')).toEqual({ city: 'Houston', state: 'TX' });
    expect(searchFromText('refineries near 77001')).toEqual({ zip: '77001' });
    expect(searchFromText('facilities named Acme Chemical')).toEqual({ name: 'Acme Chemical' });
    expect(searchFromText('Acme refinery')).toEqual({ name: 'Acme refinery' });
    expect(searchFromText('help')).toBeUndefined();
  });
});

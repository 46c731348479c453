import { describe, expect, it } from 'vitest';
import { isCountry, readTable } from './census.js';
import {
  FlowInput,
  countryFromText,
  exportsFromText,
  importsFromText,
  partnersFromText,
} from './parse.js';
import { findHs, isUnitedStates, matchArea, matchName } from './resolve.js';

describe('plain language', () => {
  it('reads exports and imports: goods, partner, reporter and period', () => {
    expect(exportsFromText('US exports of soybeans to China in 2024')).toEqual({
      commodity: 'soybeans',
      partner: 'China',
      reporter: 'United States',
      period: '2024',
    });
    expect(importsFromText('imports of HS 8471 from Mexico 2025-03')).toEqual({
      commodity: '8471',
      partner: 'Mexico',
      period: '2025-03',
    });
    expect(exportsFromText("Germany's exports of cars in 2023")).toEqual({
      commodity: 'cars',
      reporter: 'Germany',
      period: '2023',
    });
    expect(exportsFromText('trade with Canada')).toBeUndefined();
  });

  it('reads a country and top partners', () => {
    expect(countryFromText('US trade with South Korea in 2024')).toEqual({
      country: 'South Korea',
      period: '2024',
    });
    expect(partnersFromText('top import partners of Japan for semiconductors in 2023')).toEqual({
      flow: 'imports',
      reporter: 'Japan',
      commodity: 'semiconductors',
      period: '2023',
    });
    expect(partnersFromText('biggest export markets')).toEqual({ flow: 'exports' });
  });

  it('checks the period', () => {
    expect(FlowInput.safeParse({ period: '2024-13' }).success).toBe(false);
    expect(FlowInput.safeParse({ period: '24' }).success).toBe(false);
    expect(FlowInput.parse({ period: '2024-06' }).period).toBe('2024-06');
  });
});

describe('names and codes both ways', () => {
  it('matches everyday names to the sources’ own', () => {
    const census = [
      { name: 'KOREA, SOUTH', code: '5800' },
      { name: 'UNITED KINGDOM', code: '4120' },
    ];
    expect(matchName('South Korea', census)?.code).toBe('5800');
    expect(matchName('UK', census)?.code).toBe('4120');
    expect(matchName('Narnia', census)).toBeUndefined();
    const m49 = [
      { code: 842, name: 'USA', iso2: 'US', iso3: 'USA', isGroup: false },
      { code: 410, name: 'Rep. of Korea', iso2: 'KR', iso3: 'KOR', isGroup: false },
      { code: 97, name: 'EU', isGroup: true },
    ];
    expect(matchArea('United States', m49)?.code).toBe(842);
    expect(matchArea('south korea', m49)?.code).toBe(410);
    expect(matchArea('KOR', m49)?.code).toBe(410);
    expect(matchArea('842', m49)?.name).toBe('USA');
    expect(isUnitedStates('U.S.')).toBe(true);
    expect(isUnitedStates('Germany')).toBe(false);
  });

  it('finds HS codes from words, everyday names, or the code', () => {
    const hs = [
      { code: '87', name: 'Vehicles; other than railway' },
      { code: '8703', name: 'Motor cars and other motor vehicles' },
      { code: '1201', name: 'Soya beans; whether or not broken' },
    ];
    expect(findHs('motor cars', hs)?.code).toBe('8703');
    expect(findHs('cars', hs)?.code).toBe('8703');
    expect(findHs('soya beans', hs)?.code).toBe('1201');
    expect(findHs('87', hs)?.name).toBe('Vehicles; other than railway');
    expect(findHs('unobtainium', hs)).toBeUndefined();
  });
});

describe('Census tables', () => {
  it('reads the header row into named string columns, and tells countries from groups', () => {
    expect(
      readTable([
        ['CTY_CODE', 'ALL_VAL_MO'],
        ['5700', '12'],
      ])
    ).toEqual([{ CTY_CODE: '5700', ALL_VAL_MO: '12' }]);
    expect(() => readTable([['A'], ['1', '2']])).toThrow(/unexpected shape/);
    expect(['-', '0003', '5XXX', '5700'].map(isCountry)).toEqual([false, false, false, true]);
  });
});

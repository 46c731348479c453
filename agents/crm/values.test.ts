import { describe, expect, it } from 'vitest';
import {
  inferValue,
  normalizeKey,
  normalizeType,
  parseDate,
  parseDateTime,
  parseLooseNumber,
  showValue,
  typeFilter,
  typeMetaValue,
  type CompareClass,
} from './values.js';

const none = new Set<CompareClass>();

describe('normalizeType / normalizeKey', () => {
  it('treats organization, org and company as organisation and keeps custom types', () => {
    expect(normalizeType('Organization')).toBe('organisation');
    expect(normalizeType('org')).toBe('organisation');
    expect(normalizeType('company')).toBe('organisation');
    expect(normalizeType(' Person ')).toBe('person');
    expect(normalizeType('supplier')).toBe('supplier');
    expect(normalizeType('9lives')).toBeUndefined();
    expect(normalizeType('a;drop')).toBeUndefined();
  });
  it('makes keys snake_case and refuses what cannot be one', () => {
    expect(normalizeKey('Close date')).toBe('close_date');
    expect(normalizeKey('deal-size')).toBe('deal_size');
    expect(normalizeKey('1st')).toBeUndefined();
    expect(normalizeKey('a.b')).toBeUndefined();
  });
});

describe('dates and numbers', () => {
  it('accepts real calendar dates only', () => {
    expect(parseDate('2027-01-01')).toBe('2027-01-01');
    expect(parseDate('2026-02-30')).toBeUndefined();
    expect(parseDate('2027-1-1')).toBeUndefined();
  });
  it('reads date-times with a zone as UTC', () => {
    expect(parseDateTime('2026-05-01T14:00:00+02:00')).toBe('2026-05-01T12:00:00.000Z');
    expect(parseDateTime('2026-05-01T14:00Z')).toBe('2026-05-01T14:00:00.000Z');
    expect(parseDateTime('2026-05-01T14:00:00')).toBeUndefined();
  });
  it('reads numbers as people write them', () => {
    expect(parseLooseNumber('1,200.50')).toBe(1200.5);
    expect(parseLooseNumber('$50,000')).toBe(50000);
    expect(parseLooseNumber('10k')).toBe(10000);
    expect(parseLooseNumber('60%')).toBeCloseTo(0.6);
    expect(parseLooseNumber('-3.5')).toBe(-3.5);
    expect(parseLooseNumber('12 apples')).toBeUndefined();
    expect(parseLooseNumber('1,2')).toBeUndefined();
  });
});

describe('inferValue', () => {
  it('keeps JSON numbers and booleans, reads ISO dates, leaves other strings alone', () => {
    expect(inferValue(3)).toEqual({ kind: 'number', value: 3 });
    expect(inferValue(false)).toEqual({ kind: 'boolean', value: false });
    expect(inferValue('2027-03-01')).toEqual({ kind: 'date', value: '2027-03-01' });
    expect(inferValue('2027-03-01T10:00:00Z')).toEqual({
      kind: 'datetime',
      value: '2027-03-01T10:00:00.000Z',
    });
    expect(inferValue('02139')).toEqual({ kind: 'string', value: '02139' });
  });
  it('reads numbers and yes/no from natural language when loose', () => {
    expect(inferValue('02139', true)).toEqual({ kind: 'number', value: 2139 });
    expect(inferValue('yes', true)).toEqual({ kind: 'boolean', value: true });
    expect(inferValue('won', true)).toEqual({ kind: 'string', value: 'won' });
  });
});

describe('typeMetaValue: well-known keys', () => {
  it('checks and lower-cases emails', () => {
    expect(typeMetaValue('email', 'Ada@Example.com')).toEqual({
      ok: true,
      value: { kind: 'string', value: 'ada@example.com' },
    });
    const bad = typeMetaValue('email', 'not-an-email');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/email must be an email address/);
    expect(typeMetaValue('email', 42).ok).toBe(false);
  });
  it('stores probability as a fraction, reading percentages above 1', () => {
    expect(typeMetaValue('probability', 0.6)).toEqual({
      ok: true,
      value: { kind: 'number', value: 0.6 },
    });
    expect(typeMetaValue('probability', 60)).toEqual({
      ok: true,
      value: { kind: 'number', value: 0.6 },
    });
    expect(typeMetaValue('probability', '75%')).toEqual({
      ok: true,
      value: { kind: 'number', value: 0.75 },
    });
    expect(typeMetaValue('probability', 1)).toEqual({
      ok: true,
      value: { kind: 'number', value: 1 },
    });
    expect(typeMetaValue('probability', 101).ok).toBe(false);
    expect(typeMetaValue('probability', -0.1).ok).toBe(false);
    expect(typeMetaValue('probability', 'likely').ok).toBe(false);
  });
  it('wants a date for close_date and a number for deal_size_estimate', () => {
    expect(typeMetaValue('close_date', '2027-01-01')).toEqual({
      ok: true,
      value: { kind: 'date', value: '2027-01-01' },
    });
    expect(typeMetaValue('close_date', 'next week').ok).toBe(false);
    expect(typeMetaValue('close_date', 20270101).ok).toBe(false);
    expect(typeMetaValue('deal_size_estimate', '$50,000')).toEqual({
      ok: true,
      value: { kind: 'number', value: 50000 },
    });
    expect(typeMetaValue('deal_size_estimate', -5).ok).toBe(false);
  });
  it('infers other keys and refuses empty strings', () => {
    expect(typeMetaValue('stage', 'won')).toEqual({
      ok: true,
      value: { kind: 'string', value: 'won' },
    });
    expect(typeMetaValue('seats', 12)).toEqual({ ok: true, value: { kind: 'number', value: 12 } });
    expect(typeMetaValue('stage', '  ').ok).toBe(false);
  });
});

describe('typeFilter', () => {
  it('types values by key and by what is stored', () => {
    expect(typeFilter({ key: 'probability', op: 'gte', value: 0.5 }, 'f', none)).toEqual({
      ok: true,
      value: { key: 'probability', op: 'gte', cls: 'number', value: 0.5 },
    });
    expect(typeFilter({ key: 'close_date', op: 'lt', value: '2027-01-01' }, 'f', none)).toEqual({
      ok: true,
      value: { key: 'close_date', op: 'lt', cls: 'time', value: '2027-01-01T00:00:00.000Z' },
    });
    expect(typeFilter({ key: 'seats', op: 'gt', value: '10' }, 'f', new Set(['number']))).toEqual({
      ok: true,
      value: { key: 'seats', op: 'gt', cls: 'number', value: 10 },
    });
    expect(typeFilter({ key: 'Stage', op: 'EQ', value: 'won' }, 'f', new Set(['string']))).toEqual({
      ok: true,
      value: { key: 'stage', op: 'eq', cls: 'string', value: 'won' },
    });
  });
  it('names the filter and the field on an unknown op', () => {
    const r = typeFilter({ key: 'probability', op: 'between', value: 1 }, 'filters[2]', none);
    expect(r).toEqual({
      ok: false,
      error: 'filters[2].op: unknown op "between"; use one of eq, gt, gte, lt, lte',
    });
  });
  it('refuses values that do not fit the key', () => {
    const p = typeFilter({ key: 'probability', op: 'gte', value: 'high' }, 'filters[0]', none);
    expect(!p.ok && p.error).toMatch(/^filters\[0\]\.value: probability compares a number/);
    const d = typeFilter({ key: 'close_date', op: 'lt', value: 5 }, 'filters[0]', none);
    expect(!d.ok && d.error).toMatch(/^filters\[0\]\.value: close_date compares a date/);
    const s = typeFilter({ key: 'stage', op: 'gt', value: 3 }, 'filters[1]', new Set(['string']));
    expect(!s.ok && s.error).toMatch(/^filters\[1\]\.value: stage holds strings in this CRM/);
    const b = typeFilter({ key: 'active', op: 'gt', value: true }, 'filters[0]', none);
    expect(!b.ok && b.error).toMatch(/only compare with eq/);
  });
});

describe('showValue', () => {
  it('shows probability as a percentage and big integers grouped', () => {
    expect(showValue('probability', { kind: 'number', value: 0.6 })).toBe('60%');
    expect(showValue('deal_size_estimate', { kind: 'number', value: 50000 })).toBe('50,000');
    expect(showValue('met', { kind: 'datetime', value: '2026-05-01T12:00:00.000Z' })).toBe(
      '2026-05-01 12:00 UTC'
    );
  });
});

import { describe, expect, it } from 'vitest';
import { Instant, Labels, Slug, newId, parseInstant, slugify } from './parse.js';

describe('parseInstant', () => {
  it.each([
    ['2026-12-01', '2026-12-01T00:00:00.000Z'],
    ['2026-12-01T17:00:00Z', '2026-12-01T17:00:00.000Z'],
    ['2026-12-01T17:00Z', '2026-12-01T17:00:00.000Z'],
    ['2026-12-01T17:00:00.250Z', '2026-12-01T17:00:00.250Z'],
    ['2026-12-01T17:00:00+02:00', '2026-12-01T15:00:00.000Z'],
    ['2026-12-01T01:00:00-0530', '2026-12-01T06:30:00.000Z'],
    [' 2026-12-01 17:00:00Z ', '2026-12-01T17:00:00.000Z'],
  ])('%j is %s', (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });

  it.each([
    'tomorrow',
    '2026-02-30',
    '2026-13-01',
    '2026-12-01T17:00:00', // no zone: ambiguous, refused
    '2026-12-01T24:00:00Z',
    '2026-12-01T17:60Z',
    '12/01/2026',
    '',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });

  it('names the expected form in the schema message', () => {
    const r = Instant.safeParse('next week');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toContain('ISO 8601');
  });
});

describe('slugs', () => {
  it.each([
    ['Q3 Launch', 'q3-launch'],
    ['  Crème brûlée — recipes!  ', 'creme-brulee-recipes'],
    ['a--b__c', 'a-b-c'],
    ['!!!', ''],
  ])('slugify(%j) = %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('cuts long names to 48 characters without a trailing dash', () => {
    const s = slugify(`${'a'.repeat(47)} b`);
    expect(s).toBe('a'.repeat(47));
  });

  it('accepts a slug lower-cased and refuses spaces and double dashes', () => {
    expect(Slug.parse('Sprint-12')).toBe('sprint-12');
    expect(Slug.safeParse('sprint 12').success).toBe(false);
    expect(Slug.safeParse('a--b').success).toBe(false);
  });
});

describe('labels and ids', () => {
  it('trims labels and drops repeats regardless of case, keeping the first spelling', () => {
    expect(Labels.parse([' Bug ', 'bug', 'UI', 'ui', 'api'])).toEqual(['Bug', 'UI', 'api']);
  });

  it('refuses empty labels', () => {
    expect(Labels.safeParse(['ok', '  ']).success).toBe(false);
  });

  it('makes prefixed hex ids', () => {
    expect(newId('card')).toMatch(/^kb_card_[0-9a-f]{16}$/);
    expect(newId('board')).toMatch(/^kb_board_[0-9a-f]{16}$/);
    expect(newId('card')).not.toBe(newId('card'));
  });
});

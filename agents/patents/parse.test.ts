import { describe, expect, it } from 'vitest';
import {
  SimilarInput,
  assigneeFromText,
  detailFromText,
  readRef,
  searchFromText,
  similarFromText,
} from './parse.js';

describe('patent numbers', () => {
  it('reads patents and applications as people write them', () => {
    expect(readRef('US 11,234,567 B2')).toEqual({ kind: 'patent', number: '11234567' });
    expect(readRef('patent 9876543')).toEqual({ kind: 'patent', number: '9876543' });
    expect(readRef('RE49,123')).toBeUndefined();
    expect(readRef('16/123,456')).toEqual({ kind: 'application', number: '16123456' });
    expect(readRef('application 16123456')).toEqual({ kind: 'application', number: '16123456' });
    expect(readRef('battery 2024')).toBeUndefined();
    expect(SimilarInput.safeParse({ patent: 'banana' }).success).toBe(false);
  });
});

describe('plain-language patents requests', () => {
  it('reads similar only with a patent to compare to', () => {
    expect(similarFromText('patents similar to US 11,234,567, top 5')).toEqual({
      patent: 'US 11,234,567, top 5',
      limit: 5,
    });
    expect(similarFromText('patents similar to drones')).toBeUndefined();
  });

  it('reads a number as a detail request', () => {
    expect(detailFromText('what is patent 11234567?')).toEqual({
      patent: 'what is patent 11234567?',
    });
    expect(detailFromText('solid-state batteries')).toBeUndefined();
  });

  it('reads an assignee, with a topic before or after', () => {
    expect(assigneeFromText('patents assigned to IBM')).toEqual({ assignee: 'IBM' });
    expect(assigneeFromText('battery patents owned by Tesla')).toEqual({
      assignee: 'Tesla',
      concept: 'battery',
    });
    expect(assigneeFromText('patents of Google on federated learning')).toEqual({
      assignee: 'Google',
      concept: 'federated learning',
    });
    expect(assigneeFromText('Samsung’s patents on electrolytes')).toEqual({
      assignee: 'Samsung',
      concept: 'electrolytes',
    });
    expect(assigneeFromText('solid-state batteries')).toBeUndefined();
  });

  it('searches any concept, but not a greeting', () => {
    expect(searchFromText('find patents about drone delivery, top 3')).toEqual({
      concept: 'drone delivery',
      limit: 3,
    });
    expect(searchFromText('help')).toBeUndefined();
    expect(searchFromText('patents')).toBeUndefined();
  });
});

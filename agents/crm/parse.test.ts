import { describe, expect, it } from 'vitest';
import { parseRequest } from './parse.js';

describe('parseRequest: add', () => {
  it('maps a person with email and employer to upsert plus a works_at link', () => {
    expect(
      parseRequest('Add person Ada Lovelace, email ada@example.com, works at Analytical Engines')
    ).toEqual({
      kind: 'upsert',
      payload: {
        action: 'entity:upsert',
        type: 'person',
        name: 'Ada Lovelace',
        metadata: { email: 'ada@example.com' },
      },
      links: [{ relation: 'works_at', to: 'Analytical Engines', toType: 'organisation' }],
    });
  });
  it('reads a description after a colon, keeping its commas, and typed custom keys', () => {
    expect(
      parseRequest(
        'Add organization Solaris: rooftop solar panels, batteries and inverters, employees: 40'
      )
    ).toEqual({
      kind: 'upsert',
      payload: {
        action: 'entity:upsert',
        type: 'organisation',
        name: 'Solaris',
        description: 'rooftop solar panels, batteries and inverters',
        metadata: { employees: 40 },
      },
      links: [],
    });
  });
  it('needs "named" for a type of one\'s own', () => {
    expect(parseRequest('Add a supplier named Acme Bolts, rating: 4.5')).toMatchObject({
      kind: 'upsert',
      payload: { type: 'supplier', name: 'Acme Bolts', metadata: { rating: 4.5 } },
    });
    expect(parseRequest('Add Ada Lovelace')).toBeUndefined();
  });
  it('keeps well-known values as written for the action to check', () => {
    expect(
      parseRequest(
        'Create deal Big Deal, probability 60%, close date 2027-03-01, deal size $50,000'
      )
    ).toMatchObject({
      payload: {
        type: 'deal',
        name: 'Big Deal',
        metadata: { probability: '60%', close_date: '2027-03-01', deal_size_estimate: '$50,000' },
      },
    });
  });
});

describe('parseRequest: search and get', () => {
  it('maps "find <type> about …" to entity:search with a type', () => {
    expect(parseRequest('Find organisations about solar panels')).toEqual({
      kind: 'action',
      payload: { action: 'entity:search', query: 'solar panels', type: 'organisation' },
    });
    expect(parseRequest('search for pricing software')).toEqual({
      kind: 'action',
      payload: { action: 'entity:search', query: 'pricing software' },
    });
  });
  it('maps show/get to entity:get by id or by name', () => {
    expect(parseRequest('Show entity crm_ent_0123456789abcdef')).toEqual({
      kind: 'action',
      payload: { action: 'entity:get', entity: 'crm_ent_0123456789abcdef' },
    });
    expect(parseRequest('Get Ada Lovelace')).toEqual({
      kind: 'action',
      payload: { action: 'entity:get', entity: 'Ada Lovelace' },
    });
    expect(parseRequest('show deal Big Deal')).toEqual({
      kind: 'action',
      payload: { action: 'entity:get', entity: 'Big Deal', type: 'deal' },
    });
  });
});

describe('parseRequest: log, set, link', () => {
  it('maps "log a call with X: …" to interaction:log', () => {
    expect(parseRequest('Log a call with Ada Lovelace: discussed pricing')).toEqual({
      kind: 'action',
      payload: {
        action: 'interaction:log',
        kind: 'call',
        entity: 'Ada Lovelace',
        text: 'discussed pricing',
      },
    });
    expect(parseRequest('log meeting with Ada on 2026-05-01T14:00: kickoff, agenda set')).toEqual({
      kind: 'action',
      payload: {
        action: 'interaction:log',
        kind: 'meeting',
        entity: 'Ada',
        occurred_at: '2026-05-01T14:00Z',
        text: 'kickoff, agenda set',
      },
    });
  });
  it('maps "set K of X to V" to meta:set, and description/name to upsert by id', () => {
    expect(parseRequest('Set probability of Big Deal to 0.6')).toEqual({
      kind: 'action',
      payload: { action: 'meta:set', entity: 'Big Deal', key: 'probability', value: '0.6' },
    });
    expect(parseRequest('set the seats of Big Deal to 12')).toEqual({
      kind: 'action',
      payload: { action: 'meta:set', entity: 'Big Deal', key: 'seats', value: 12 },
    });
    expect(parseRequest('Set description of Solaris to solar farms')).toEqual({
      kind: 'action',
      payload: { action: 'entity:upsert', id: 'Solaris', description: 'solar farms' },
    });
  });
  it('maps "link X to Y as R" to link:create', () => {
    expect(parseRequest('Link Ada Lovelace to Solaris as advises')).toEqual({
      kind: 'action',
      payload: { action: 'link:create', from: 'Ada Lovelace', to: 'Solaris', relation: 'advises' },
    });
  });
});

describe('parseRequest: meta:search', () => {
  it('maps comparisons and "closing before" to filters', () => {
    expect(parseRequest('Deals with probability >= 0.5 closing before 2027-01-01')).toEqual({
      kind: 'action',
      payload: {
        action: 'meta:search',
        type: 'deal',
        filters: [
          { key: 'probability', op: 'gte', value: '0.5' },
          { key: 'close_date', op: 'lt', value: '2027-01-01' },
        ],
      },
    });
  });
  it('reads word operators, custom keys and plural custom types', () => {
    expect(parseRequest('show suppliers with rating at least 4 and stage is "on hold"')).toEqual({
      kind: 'action',
      payload: {
        action: 'meta:search',
        type: 'supplier',
        filters: [
          { key: 'rating', op: 'gte', value: 4 },
          { key: 'stage', op: 'eq', value: 'on hold' },
        ],
      },
    });
    expect(parseRequest('deals where deal size > 10k')).toMatchObject({
      payload: { filters: [{ key: 'deal_size_estimate', op: 'gt', value: '10k' }] },
    });
  });
});

describe('parseRequest: the rest', () => {
  it('answers help and refuses what it does not know', () => {
    expect(parseRequest('help')).toEqual({ kind: 'help' });
    expect(parseRequest('make me a sandwich')).toBeUndefined();
    expect(parseRequest('deals with lots of money')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { EntityBatch } from './batch.js';
import { normIdentifier, normName, plainName } from './names.js';

describe('entity names', () => {
  it('strips case, accents, punctuation and legal forms', () => {
    expect(normName('Acme Pharma Inc.')).toBe('ACME PHARMA');
    expect(normName('ACME PHARMACEUTICALS, INC')).toBe('ACME PHARMACEUTICALS');
    expect(normName('Samsung SDI Co., Ltd.')).toBe('SAMSUNG SDI');
    expect(normName('Merck Sharp & Dohme LLC')).toBe('MERCK SHARP DOHME');
    expect(normName('MERCK SHARP DOHME')).toBe('MERCK SHARP DOHME');
    expect(normName('Nestlé S.A.')).toBe('NESTLE');
    expect(normName('Widgets L.L.C.')).toBe('WIDGETS');
    expect(normName('The Boeing Company')).toBe('BOEING');
    expect(normName('Google LLC')).toBe('GOOGLE');
    expect(normName('Holdings Inc')).toBe('HOLDINGS');
    expect(plainName('  Tesla,  Inc. ')).toBe('TESLA INC');
  });

  it('keeps words that only look like legal forms inside the name', () => {
    expect(normName('Co-Diagnostics Inc')).toBe('CO DIAGNOSTICS');
    expect(normName('International Business Machines Corporation')).toBe(
      'INTERNATIONAL BUSINESS MACHINES'
    );
  });

  it('spells identifiers one way per scheme, and refuses what cannot be one', () => {
    expect(normIdentifier('cik', '320193')).toBe('0000320193');
    expect(normIdentifier('cik', 'CIK0000320193')).toBe('0000320193');
    expect(normIdentifier('cik', 'apple')).toBeUndefined();
    expect(normIdentifier('nct', 'nct05000001')).toBe('NCT05000001');
    expect(normIdentifier('nct', 'NCT123')).toBeUndefined();
    expect(normIdentifier('ticker', 'brk.b')).toBe('BRK.B');
    expect(normIdentifier('lei', '5493001kjtiigc8y1r12')).toBe('5493001KJTIIGC8Y1R12');
    expect(normIdentifier('companies_house', '123456')).toBe('00123456');
    expect(normIdentifier('patent_application', '16/000,501')).toBe('16000501');
    expect(normIdentifier('epa_registry', '110000000001')).toBe('110000000001');
    expect(normIdentifier('Bad Scheme', 'x')).toBeUndefined();
    expect(normIdentifier('cik', '  ')).toBeUndefined();
  });
});

describe('entity batches', () => {
  const from = {
    source: 'ClinicalTrials.gov',
    endpoint: '/studies',
    params: {},
    retrievedAt: '2026-11-27T10:00:00.000Z',
    url: 'http://x/studies?query.spons=Acme',
    cached: false,
  };

  it('keeps the record and its provenance on every node and edge', () => {
    const b = new EntityBatch('agent-trials-official');
    const r = b.record('NCT05000301', from);
    const trial = r.node('trial', 'Migraine study', { ids: { nct: 'nct05000301', cik: 'x' } });
    const sponsor = r.node('company', ' Acme  Pharma Inc. ');
    r.edge(sponsor, 'sponsors', trial);
    expect(b.nodes[0]).toMatchObject({ ids: { nct: 'NCT05000301' }, record: 'NCT05000301' });
    expect(b.nodes[1]).toMatchObject({ name: 'Acme Pharma Inc.', norm: 'ACME PHARMA' });
    expect(b.nodes[1]!.origin).toEqual({
      dataset: 'ClinicalTrials.gov',
      url: from.url,
      fetchedAt: from.retrievedAt,
    });
    expect(b.edges).toEqual([
      expect.objectContaining({ src: 1, dst: 0, relation: 'sponsors', record: 'NCT05000301' }),
    ]);
  });

  it('records nothing for blank names, nor edges to them', () => {
    const b = new EntityBatch('agent-epa');
    const r = b.record('1', from);
    const none = r.node('company', '  ');
    r.edge(none, 'operates', r.node('facility', 'Plant'));
    expect(none).toBeUndefined();
    expect(b.nodes).toHaveLength(1);
    expect(b.edges).toHaveLength(0);
    expect(new EntityBatch('a').empty).toBe(true);
  });
});

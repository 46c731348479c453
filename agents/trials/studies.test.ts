import { describe, expect, it } from 'vitest';
import { miles, nearestSite, readStudy, studyParams } from './studies.js';
import { phaseLabel, renderDetail, renderList } from './render.js';

const study = {
  protocolSection: {
    identificationModule: {
      nctId: 'NCT04280705',
      briefTitle: 'Adaptive COVID-19 Treatment Trial (ACTT)',
      officialTitle: 'A Multicenter, Adaptive, Randomized Blinded Controlled Trial',
    },
    statusModule: {
      overallStatus: 'COMPLETED',
      startDateStruct: { date: '2020-02-21' },
      primaryCompletionDateStruct: { date: '2020-04-19' },
      lastUpdatePostDateStruct: { date: '2021-01-29' },
    },
    sponsorCollaboratorsModule: {
      leadSponsor: {
        name: 'National Institute of Allergy and Infectious Diseases (NIAID)',
        class: 'NIH',
      },
    },
    conditionsModule: { conditions: ['COVID-19'] },
    designModule: {
      studyType: 'INTERVENTIONAL',
      phases: ['PHASE3'],
      enrollmentInfo: { count: 1062 },
    },
    armsInterventionsModule: {
      interventions: [
        { type: 'DRUG', name: 'Remdesivir' },
        { type: 'OTHER', name: 'Placebo' },
        { type: 'DRUG' },
      ],
    },
    contactsLocationsModule: {
      locations: [
        {
          facility: 'UCSD',
          city: 'La Jolla',
          state: 'California',
          country: 'United States',
          geoPoint: { lat: 32.84, lon: -117.27 },
        },
        {
          facility: 'Emory',
          city: 'Atlanta',
          state: 'Georgia',
          country: 'United States',
          geoPoint: { lat: 33.75, lon: -84.39 },
        },
        { facility: 'No point', city: 'Nowhere', country: 'United States' },
      ],
    },
  },
  hasResults: true,
};

describe('ClinicalTrials.gov records', () => {
  it('reads a study in the API v2 shape', () => {
    const t = readStudy(study)!;
    expect(t).toMatchObject({
      nctId: 'NCT04280705',
      title: 'Adaptive COVID-19 Treatment Trial (ACTT)',
      status: 'COMPLETED',
      phases: ['PHASE3'],
      sponsor: 'National Institute of Allergy and Infectious Diseases (NIAID)',
      sponsorClass: 'NIH',
      enrollment: 1062,
      startDate: '2020-02-21',
      hasResults: true,
      url: 'https://clinicaltrials.gov/study/NCT04280705',
    });
    // An intervention without a name is dropped; a site without a point keeps no coordinates.
    expect(t.interventions).toEqual([
      { type: 'DRUG', name: 'Remdesivir' },
      { type: 'OTHER', name: 'Placebo' },
    ]);
    expect(t.locations[2]).toEqual({
      facility: 'No point',
      city: 'Nowhere',
      state: '',
      country: 'United States',
    });
  });

  it('refuses what is not a study, and tolerates missing modules', () => {
    expect(readStudy({ studies: [] })).toBeUndefined();
    const bare = readStudy({
      protocolSection: { identificationModule: { nctId: 'NCT00000001' } },
    })!;
    expect(bare).toMatchObject({
      title: 'NCT00000001',
      status: 'UNKNOWN',
      phases: [],
      locations: [],
    });
  });

  it('builds the upstream parameters: phases through filter.advanced, geo as distance()', () => {
    expect(
      studyParams({
        term: 'melanoma',
        sponsor: 'Merck',
        recruiting: true,
        phase: 'PHASE2',
        geo: { lat: 42.3601, lon: -71.0589, miles: 50 },
      })
    ).toMatchObject({
      'query.term': 'melanoma',
      'query.spons': 'Merck',
      'filter.overallStatus': 'RECRUITING',
      'filter.advanced': 'AREA[Phase]PHASE2',
      'filter.geo': 'distance(42.360100,-71.058900,50mi)',
      countTotal: 'true',
    });
    expect(Object.keys(studyParams({}))).not.toContain('filter.phase');
  });

  it('measures distances and finds the nearest site', () => {
    expect(miles({ lat: 42.3601, lon: -71.0589 }, { lat: 40.7128, lon: -74.006 })).toBeCloseTo(
      190,
      -1
    );
    const near = nearestSite(readStudy(study)!, { lat: 33.7, lon: -84.4 })!;
    expect(near.location.city).toBe('Atlanta');
    expect(near.miles).toBeLessThan(5);
  });
});

describe('rendering', () => {
  it('labels phases', () => {
    expect(phaseLabel(['PHASE2', 'PHASE3'])).toBe('Phase 2/Phase 3');
    expect(phaseLabel(['NA'])).toBe('no phase');
    expect(phaseLabel(['EARLY_PHASE1'])).toBe('Early phase 1');
  });

  it('lists trials with their facts and link, and says when there are none', () => {
    const t = readStudy(study)!;
    const text = renderList('“covid”', [t], 12);
    expect(text).toMatch(/^🧪 Clinical trials for “covid”: 1 of 12\n\n1\. NCT04280705 · Adaptive/);
    expect(text).toContain('✅ COMPLETED · Phase 3 · 🏢 National Institute');
    expect(text).toContain('💊 Remdesivir, Placebo');
    expect(renderList('“x”', [], 0)).toBe('🧪 No clinical trials found for “x”.');
  });

  it('details a trial', () => {
    const text = renderDetail(readStudy(study)!);
    expect(text).toContain('📍 Sites (3):');
    expect(text).toContain('📊 Results posted: yes');
    expect(text).toContain('💊 Interventions: Remdesivir (DRUG), Placebo (OTHER)');
  });
});

import { describe, expect, it } from 'vitest';
import {
  DetailInput,
  detailFromText,
  nearbyFromText,
  phaseIn,
  recruitingFromText,
  searchFromText,
  sponsorFromText,
  topicOf,
} from './parse.js';

describe('plain-language trials requests', () => {
  it('reads phases in their usual spellings', () => {
    expect(phaseIn('phase 3 trials')).toBe('PHASE3');
    expect(phaseIn('Phase II')).toBe('PHASE2');
    expect(phaseIn('phase IV study')).toBe('PHASE4');
    expect(phaseIn('early phase 1')).toBe('EARLY_PHASE1');
    expect(phaseIn('melanoma')).toBeUndefined();
  });

  it('keeps the topic words only', () => {
    expect(topicOf('show me recruiting phase 3 melanoma clinical trials')).toBe('melanoma');
    expect(topicOf('top 5 studies for type 2 diabetes')).toBe('type 2 diabetes');
  });

  it('finds an NCT number anywhere, in any case', () => {
    expect(detailFromText('what is nct04280705 about?')).toEqual({ nctId: 'nct04280705' });
    expect(DetailInput.parse({ nctId: 'nct04280705' }).nctId).toBe('NCT04280705');
    expect(detailFromText('melanoma')).toBeUndefined();
  });

  it('reads a place, a distance and the rest of a nearby request', () => {
    expect(nearbyFromText('recruiting melanoma trials near Boston')).toEqual({
      location: 'Boston',
      query: 'melanoma',
      recruiting: true,
    });
    expect(nearbyFromText('asthma studies within 25 miles of Chicago, IL')).toEqual({
      location: 'Chicago, IL',
      query: 'asthma',
      distanceMiles: 25,
    });
    expect(nearbyFromText('trials around Paris')).toEqual({ location: 'Paris' });
    expect(nearbyFromText('melanoma trials')).toBeUndefined();
  });

  it('reads a sponsor after "sponsored by" or "trials by"', () => {
    expect(sponsorFromText('melanoma trials sponsored by Pfizer')).toEqual({
      sponsor: 'Pfizer',
      query: 'melanoma',
    });
    expect(sponsorFromText('phase 2 trials by Moderna')).toEqual({
      sponsor: 'Moderna',
      phase: 'PHASE2',
    });
    expect(sponsorFromText('melanoma')).toBeUndefined();
  });

  it('needs a recruiting word and a topic for recruiting', () => {
    expect(recruitingFromText('recruiting phase 3 lung cancer trials')).toEqual({
      query: 'lung cancer',
      phase: 'PHASE3',
    });
    expect(recruitingFromText('top 5 enrolling asthma studies')).toEqual({
      query: 'asthma',
      limit: 5,
    });
    expect(recruitingFromText('recruiting trials')).toBeUndefined();
    expect(recruitingFromText('asthma')).toBeUndefined();
  });

  it('searches any topic, but not a greeting or help', () => {
    expect(searchFromText('type 2 diabetes phase 2 trials')).toEqual({
      query: 'type 2 diabetes',
      phase: 'PHASE2',
    });
    expect(searchFromText('help')).toBeUndefined();
    expect(searchFromText('clinical trials')).toBeUndefined();
  });
});

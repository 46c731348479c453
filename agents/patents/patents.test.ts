import { describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../../infra/embed/index.js';
import { phrase, readOdp, words } from './odp.js';
import type { Patent } from './patent.js';
import { readPatentsView } from './patentsview.js';
import { basisText, rank } from './relevance.js';
import { label, renderList } from './render.js';

const signal = new AbortController().signal;

function p(title: string, extra: Partial<Patent> = {}): Patent {
  return { title, assignees: [], inventors: [], cpc: [], url: 'u', ...extra };
}

describe('upstream records', () => {
  it('reads an ODP file wrapper', () => {
    const r = readOdp({
      applicationNumberText: '16123456',
      applicationMetaData: {
        inventionTitle: 'Battery',
        filingDate: '2020-01-15',
        grantDate: '2022-03-01',
        patentNumber: '11234567',
        applicationStatusDescriptionText: 'Patented Case',
        firstApplicantName: 'Tesla, Inc.',
        applicantBag: [{ applicantNameText: 'Tesla, Inc.' }],
        inventorBag: [{ inventorNameText: 'Jane Doe' }],
        cpcClassificationBag: ['H01M 10/0562'],
      },
      assignmentBag: [{ assigneeBag: [{ assigneeNameText: 'TESLA INC' }] }],
    })!;
    expect(r).toEqual({
      applicationNumber: '16123456',
      patentNumber: '11234567',
      title: 'Battery',
      filingDate: '2020-01-15',
      grantDate: '2022-03-01',
      status: 'Patented Case',
      assignees: ['TESLA INC', 'Tesla, Inc.'],
      inventors: ['Jane Doe'],
      cpc: ['H01M 10/0562'],
      url: 'https://patents.google.com/patent/US11234567',
    });
    const app = readOdp({ applicationNumberText: '17000001', applicationMetaData: {} })!;
    expect(app.url).toBe('https://patentcenter.uspto.gov/applications/17000001');
    expect(readOdp({ applicationMetaData: {} })).toBeUndefined();
  });

  it('reads a PatentsView patent', () => {
    expect(
      readPatentsView({
        patent_id: '11234567',
        patent_title: 'Drone',
        patent_date: '2022-03-01',
        patent_abstract: 'A drone.',
        assignees: [{ assignee_organization: 'Amazon' }],
        inventors: [{ inventor_name_first: 'Ada', inventor_name_last: 'Lovelace' }],
      })
    ).toMatchObject({
      patentNumber: '11234567',
      title: 'Drone',
      abstract: 'A drone.',
      grantDate: '2022-03-01',
      assignees: ['Amazon'],
      inventors: ['Ada Lovelace'],
    });
  });

  it('keeps callers’ text inside OpenSearch phrases and words', () => {
    expect(phrase('IBM" OR x:"y')).toBe('"IBM OR x: y"');
    expect(words('solid-state (battery) AND anode: "x"')).toBe('solid state battery anode x');
  });
});

describe('relevance', () => {
  it('ranks by the embedder over title and abstract when there is no upstream score', async () => {
    const r = await rank(
      [
        p('Drone delivery route'),
        p('Solid-state battery electrolyte'),
        p('Battery', { abstract: 'a solid-state battery cell' }),
      ],
      'solid-state battery',
      createLocalEmbedder(),
      signal
    );
    expect(r.basis).toEqual({
      method: 'embedder',
      embedder: 'local-hash-v1',
      over: 'title and abstract',
    });
    // The two battery patents (one through its abstract) rank above the drone.
    expect(r.ranked.at(-1)!.title).toBe('Drone delivery route');
    expect(r.ranked.every((x) => x.relevance! >= 0 && x.relevance! <= 100)).toBe(true);
    expect(r.ranked[0]!.relevance).toBeGreaterThan(r.ranked.at(-1)!.relevance!);
  });

  it('uses the upstream score, as a share of the best, when every result has one', async () => {
    const r = await rank(
      [p('a', { score: 2 }), p('b', { score: 8 }), p('c', { score: 4 })],
      'x',
      createLocalEmbedder(),
      signal
    );
    expect(r.basis).toEqual({ method: 'upstream-score' });
    expect(r.ranked.map((x) => [x.title, x.relevance])).toEqual([
      ['b', 100],
      ['c', 50],
      ['a', 25],
    ]);
    expect(basisText(r.basis, 'S')).toBe(
      "Relevance: S's own score, as a percentage of the best match."
    );
  });
});

describe('rendering', () => {
  it('labels numbers as people read them', () => {
    expect(label(p('t', { patentNumber: '11234567' }))).toBe('US 11,234,567');
    expect(label(p('t', { applicationNumber: '16123456' }))).toBe('application 16/123,456');
  });

  it('lists with relevance and counts', () => {
    const text = renderList(
      '📜 H',
      [{ ...p('T', { patentNumber: '1234567' }), relevance: 87 }],
      3,
      'B',
      'none'
    );
    expect(text).toBe('📜 H: 1 of 3\nB\n\n1. 87% · US 1,234,567 · T\n   🔗 u');
    expect(renderList('x', [], 0, '', 'none')).toBe('none');
  });
});

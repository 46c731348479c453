// The entity graph on a real PostgreSQL (migration 0020; kit/public-data/entities writes,
// agents/research/graph.ts reads): joins by identifier, by equal normalised name and by trigram
// score kept on a same_as edge; names under the threshold stay apart; edges inferred from names
// keep their score or are dropped; concurrent writers of one new name make one node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrate, type Db } from '../../infra/db/index.js';
import { EntityBatch, writeBatch } from '../../agents/kit/public-data/entities/index.js';
import { findEntities, mentions, sameAs } from '../../agents/research/graph.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

let tdb: TestDatabase;
let sql: Db;
const THRESHOLD = 0.45;

beforeAll(async () => {
  tdb = await createTestDatabase();
  sql = createDb(tdb.url, { max: 4 });
  await migrate(sql);
});
afterAll(async () => {
  await sql?.end();
  await tdb?.drop();
});

const from = (dataset: string) => ({
  dataset,
  url: `http://fixture.test/${dataset}`,
  fetchedAt: '2026-11-27T10:00:00.000Z',
});

async function company(agent: string, dataset: string, record: string, name: string, ids = {}) {
  const b = new EntityBatch(agent);
  b.record(record, from(dataset)).node('company', name, { ids });
  return writeBatch(sql, b, THRESHOLD);
}

async function nodeOf(name: string): Promise<number> {
  const [f] = await findEntities(sql, name, { kinds: ['company'], threshold: THRESHOLD, limit: 1 });
  return f!.id;
}

describe('joining identities', () => {
  it('joins equal normalised names, and links look-alikes by score without merging them', async () => {
    expect((await company('a-trials', 'Trials', 'NCT1', 'Acme Pharma Inc.')).created).toBe(1);
    expect((await company('a-patents', 'Patents', '16000401', 'ACME PHARMA CORP')).created).toBe(0);
    const r = await company('a-fda', 'FDA', 'NDA1', 'ACME PHARMACEUTICALS, INC');
    expect(r).toMatchObject({ created: 1, nameLinks: 1 });
    const acme = await nodeOf('Acme Pharma');
    const ms = await mentions(sql, [acme]);
    expect(ms.map((m) => [m.dataset, m.name, m.matchedBy, m.matchKey])).toEqual([
      ['Patents', 'ACME PHARMA CORP', 'name', 'ACME PHARMA'],
      ['Trials', 'Acme Pharma Inc.', 'new', null],
    ]);
    const [edge] = await sameAs(sql, [acme]);
    expect(edge).toMatchObject({
      relation: 'same_as',
      method: 'name',
      dataset: 'FDA',
      record: 'NDA1',
      detail: 'ACME PHARMA ~ ACME PHARMACEUTICALS',
      agentId: 'a-fda',
    });
    expect(edge!.score).toBeCloseTo(0.5, 3);
  });

  it('keeps names under the threshold apart', async () => {
    const r = await company('a-epa', 'EPA', 'R1', 'Acme Chemical Company');
    expect(r).toMatchObject({ created: 1, nameLinks: 0 });
  });

  it('joins on an identifier whatever the name, and never by name onto another identifier', async () => {
    await company('a-sec', 'SEC', 'A1', 'Globex Corporation', { cik: '320193' });
    const r = await company('a-gleif', 'GLEIF', 'L1', 'GLOBEX CORP (DELAWARE)', {
      cik: '0000320193',
    });
    expect(r.created).toBe(0);
    const globex = await nodeOf('CIK 320193');
    const ms = await mentions(sql, [globex]);
    expect(ms.find((m) => m.dataset === 'GLEIF')).toMatchObject({
      matchedBy: 'identifier',
      matchKey: 'cik=0000320193',
    });
    // Same name, another CIK: another company.
    expect(
      (await company('a-sec', 'SEC', 'A2', 'Globex Corporation', { cik: '999' })).created
    ).toBe(1);
  });

  it('makes one node when writers meet a new name at once', async () => {
    const rs = await Promise.all(
      ['One', 'Two', 'Three', 'Four'].map((d) => company(`a-${d}`, d, 'X', 'Initech LLC'))
    );
    expect(rs.reduce((n, r) => n + r.created, 0)).toBe(1);
    const rows = await sql`select count(*)::int as n from entity_nodes where norm_name = 'INITECH'`;
    expect(rows[0]!.n).toBe(1);
  });
});

describe('edges inferred from names', () => {
  it('keeps the word similarity as the score, and drops what is under the threshold', async () => {
    const b = new EntityBatch('a-epa');
    const asked = b.record('search', from('EPA')).node('company', 'Acme Pharma');
    for (const [id, name] of [
      ['110000000072', 'ACME PHARMACEUTICALS NEWARK PLANT 1'],
      ['110000000090', 'GULF COAST REFINERY 3'],
    ] as const) {
      const r = b.record(id, from('EPA'));
      const f = r.node('facility', name, { ids: { epa_registry: id } });
      r.edge(asked, 'operates', f, { byName: { of: 'Acme Pharma', in: name } });
    }
    expect((await writeBatch(sql, b, THRESHOLD)).edges).toBe(1);
    const rows = await sql<Array<{ name: string; score: number; method: string }>>`
      select n.name, e.score::float8 as score, e.method from entity_edges e
      join entity_nodes n on n.id = e.dst where e.relation = 'operates'`;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'ACME PHARMACEUTICALS NEWARK PLANT 1', method: 'name' });
    expect(rows[0]!.score).toBeGreaterThan(0.8);
  });
});

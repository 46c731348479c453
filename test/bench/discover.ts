// Issue 5's benchmark: the directory with 100,000 agents. A hub process serves it; 20 concurrent
// HTTP clients run (1) searches with a text query (often misspelt) plus two filters and (2) nearby
// searches around seeded cities; beside them, in the same run, a plain `SELECT 1` round trip from
// 20 concurrent callers gives the floor PostgreSQL itself sets on this machine. Each is measured
// twice: with `Cache-Control: no-cache` (the hub computes every answer afresh, from its in-memory
// directory or with SQL) and then without it, reporting the share served as kept answers (only
// SQL answers are kept, so with the in-memory directory that share is 0).
// BENCH_DIRECTORY_ONLY=search,nearby,searchCached,nearbyCached picks some of the four.
// Before the hub starts, the bench process loads the same directory into a LiveDirectory of its
// own (directory-load.ts): heap per agent, load time and the event loop's longest stall during
// the load (issue 31). Then the same at each further size of BENCH_DIRECTORY_SIZES (a comma list
// whose first entry replaces BENCH_AGENTS; default BENCH_AGENTS,BENCH_LARGE_AGENTS, the latter
// 1,000,000, 0 skipping it): seed, load, and the uncached search and nearby latencies beside
// `SELECT 1`. BENCH_KEEP_DB=1 keeps each size's seed for the next run (seeded-directory.ts).
import { copyFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { startNatsServer } from '../support/nats-server.js';
import { startHubProcess } from '../support/hub-process.js';
import { benchHubOptions } from './built-hub.js';
import { createDb, type Db } from '../../infra/db/index.js';
import { measureDirectoryLoad, type DirectoryLoadReport } from './directory-load.js';
import { ADMIN_TOKEN } from './queue-hub.js';
import { seededDirectory } from './seeded-directory.js';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 100_000);
const LARGE_AGENTS = Number(process.env.BENCH_LARGE_AGENTS ?? 1_000_000);
const SIZES = (process.env.BENCH_DIRECTORY_SIZES ?? `${AGENTS},${LARGE_AGENTS}`)
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONCURRENCY = 20;

export interface Latency {
  requests: number;
  errors: number;
  throughput: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Mean `count` of the answers: how many agents each query matched. */
  meanMatches: number;
  /** Share of the answers the hub served from its answer cache (X-Cache: hit). */
  hitRatio: number;
  /** Calls made, warm-up included. */
  sent: number;
}

export interface DiscoverBenchReport {
  agents: number;
  locations: number;
  seedSeconds: number;
  /** True when the database was a copy of a seed kept from an earlier run (BENCH_KEEP_DB=1). */
  seedCopied: boolean;
  concurrency: number;
  /** The directory loaded in the bench process: heap per agent, load time and stall. */
  load: DirectoryLoadReport;
  /** The further sizes (BENCH_DIRECTORY_SIZES), uncached rows only. */
  larger: Array<Omit<DiscoverBenchReport, 'larger'>>;
  selectOne: Latency;
  /** Uncached: every answer read afresh. */
  search: Latency;
  nearby: Latency;
  /** The same query mix with the answer cache. */
  searchCached: Latency;
  nearbyCached: Latency;
  /** Distinct request URLs each measurement sent (the cache can only reuse repeated ones). */
  distinctSearches: number;
  distinctNearby: number;
}

// Domain words for names, descriptions and tags: each agent draws a handful, so a word matches
// about 1-2 % of the directory, as words of a real catalogue do.
export const WORDS =
  `weather forecast travel flight hotel translate language finance stock crypto news
sports music video image photo recipe cooking health fitness legal contract invoice accounting tax
shipping logistics retail shopping marketing email calendar meeting scheduling research patent
science chemistry physics biology medical pharmacy insurance property mortgage banking payments
security privacy compliance audit hiring recruiting education tutoring math coding devops cloud
database analytics dashboard reporting summarize writing editor poetry story games chess trivia
quiz maps navigation traffic parking energy solar climate farming garden pets veterinary fashion
beauty events tickets concerts movies books library archive search crawler scraper monitor alerts
support helpdesk chat assistant voice speech transcription subtitles podcast radio television
streaming camera drone robotics sensor iot manufacturing supply warehouse inventory procurement
tender grants nonprofit charity volunteer church museum history geography astronomy space rocket
satellite aviation railway transit taxi bicycle scooter automotive repair plumbing electrician
construction architecture interior furniture cleaning laundry catering restaurant bakery coffee
wine brewery nutrition diet yoga meditation sleep therapy dental vision hearing genetics
laboratory clinical trials vaccine epidemiology wildlife ocean forestry mining oil gas water
recycling waste pollution emissions carbon sustainability`
    .split(/\s+/)
    .filter(Boolean);

export const CATEGORIES =
  `utilities travel finance news media health legal commerce productivity research
education developer data writing entertainment maps energy lifestyle security support`
    .split(/\s+/)
    .filter(Boolean);

export const MODES = [
  'text/plain',
  'application/json',
  'image/png',
  'image/jpeg',
  'application/pdf',
  'audio/mpeg',
  'video/mp4',
  'text/csv',
  'text/markdown',
];

// Cities the locations cluster around (lat, lng, ISO country).
export const CITIES: Array<[number, number, string]> = [
  [48.8566, 2.3522, 'FR'],
  [51.5074, -0.1278, 'GB'],
  [52.52, 13.405, 'DE'],
  [40.4168, -3.7038, 'ES'],
  [41.9028, 12.4964, 'IT'],
  [52.3676, 4.9041, 'NL'],
  [59.3293, 18.0686, 'SE'],
  [55.6761, 12.5683, 'DK'],
  [50.0755, 14.4378, 'CZ'],
  [48.2082, 16.3738, 'AT'],
  [47.3769, 8.5417, 'CH'],
  [38.7223, -9.1393, 'PT'],
  [40.7128, -74.006, 'US'],
  [34.0522, -118.2437, 'US'],
  [41.8781, -87.6298, 'US'],
  [37.7749, -122.4194, 'US'],
  [43.6532, -79.3832, 'CA'],
  [19.4326, -99.1332, 'MX'],
  [-23.5505, -46.6333, 'BR'],
  [-34.6037, -58.3816, 'AR'],
  [35.6762, 139.6503, 'JP'],
  [37.5665, 126.978, 'KR'],
  [31.2304, 121.4737, 'CN'],
  [22.3193, 114.1694, 'HK'],
  [1.3521, 103.8198, 'SG'],
  [28.6139, 77.209, 'IN'],
  [19.076, 72.8777, 'IN'],
  [-33.8688, 151.2093, 'AU'],
  [-37.8136, 144.9631, 'AU'],
  [-36.8485, 174.7633, 'NZ'],
  [30.0444, 31.2357, 'EG'],
  [-1.2921, 36.8219, 'KE'],
  [6.5244, 3.3792, 'NG'],
  [-26.2041, 28.0473, 'ZA'],
  [25.2048, 55.2708, 'AE'],
  [41.0082, 28.9784, 'TR'],
];

/** Seed tenants, agents (through the real triggers) and their locations, set-based. */
export async function seedDirectory(sql: Db, agents = AGENTS): Promise<{ locations: number }> {
  await sql`select setseed(0.42)`;
  await sql`
    insert into tenants (id, name, slug, verified)
    select 'ten-' || lpad(to_hex(i), 12, '0'), 'Bench Org ' || i, 'bench-org-' || i, i % 5 = 0
    from generate_series(1, 2000) i`;
  const words = sql.array(WORDS);
  // Each agent: two name words, a description of five more, three tags, two skill tags, one
  // input and one output mode, a category; one in five private; created over the last year.
  await sql`
    with pools as (
      select ${words}::text[] as w, ${sql.array(CATEGORIES)}::text[] as c,
             ${sql.array(MODES)}::text[] as m
    ), picks as (
      select i,
        -- "where i > 0" ties the subquery to the row, so each agent draws its own words.
        array(select p.w[1 + floor(random() * array_length(p.w, 1))::int]
              from generate_series(1, 12) where i > 0) as x,
        p.c[1 + floor(random() * array_length(p.c, 1))::int] as category,
        p.m[1 + floor(random() * array_length(p.m, 1))::int] as input,
        p.m[1 + floor(random() * array_length(p.m, 1))::int] as output
      from generate_series(1, ${agents}) i, pools p
    )
    insert into agents (id, tenant_id, name, description, transport, visibility, category, tags,
      card, created_at)
    select 'agent-' || lpad(to_hex(i), 12, '0'),
      'ten-' || lpad(to_hex(1 + i % 2000), 12, '0'),
      initcap(x[1]) || ' ' || initcap(x[2]) || ' ' || i,
      'Helps with ' || x[3] || ' and ' || x[4] || ', answers questions about ' || x[5] ||
        ', ' || x[6] || ' and ' || x[7] || '.',
      'websocket',
      case when i % 5 = 0 then 'private' else 'public' end,
      category,
      jsonb_build_array(x[1], x[8], x[9]),
      jsonb_build_object('name', 'bench', 'description', 'bench', 'version', '1.0.0',
        'url', 'http://127.0.0.1:1/a2a', 'capabilities', '{}'::jsonb,
        'defaultInputModes', jsonb_build_array(input),
        'defaultOutputModes', jsonb_build_array(output),
        'skills', jsonb_build_array(jsonb_build_object('id', 's', 'name', 's',
          'description', 's', 'tags', jsonb_build_array(x[10], x[11])))),
      now() - random() * interval '365 days'
    from picks`;
  // Three in ten agents have a location within ~40 km of one of the cities; some have two.
  const cities = JSON.stringify(CITIES.map(([lat, lng, country]) => ({ lat, lng, country })));
  const [{ n } = { n: 0 }] = await sql<Array<{ n: number }>>`
    with c as (
      select row_number() over () as k, lat, lng, country
      from jsonb_to_recordset(${cities}::text::jsonb) as r(lat float8, lng float8, country text)
    ), picks as (
      select a.id, s.slot,
        (select count(*) from c) as cities,
        floor(random() * 1e9)::bigint as r1, random() as dx, random() as dy
      from agents a, generate_series(0, 1) s(slot)
      where abs(hashtext(a.id)) % 10 < 3 and (s.slot = 0 or abs(hashtext(a.id)) % 10 = 0)
    ), placed as (
      insert into agent_locations (agent_id, tag, lat, lng, display_name, country, pos, position)
      select p.id, 'location:Bench ' || p.slot, c.lat + (p.dx - 0.5) * 0.7,
        c.lng + (p.dy - 0.5) * 0.9, 'Bench place', c.country,
        ll_to_earth(c.lat + (p.dx - 0.5) * 0.7, c.lng + (p.dy - 0.5) * 0.9), p.slot
      from picks p join c on c.k = 1 + p.r1 % p.cities
      returning 1
    )
    select count(*)::int as n from placed`;
  await sql`vacuum analyze agents`;
  await sql`vacuum analyze directory_entries`;
  await sql`vacuum analyze agent_locations`;
  await sql`vacuum analyze directory_lexicon`;
  await sql`vacuum analyze tenants`;
  return { locations: n };
}

function quantiles(
  latencies: number[],
  seconds: number,
  errors: number,
  matches: number[],
  hits: number
) {
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    throughput: latencies.length / seconds,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: latencies.at(-1) ?? 0,
    meanMatches: matches.length ? matches.reduce((a, b) => a + b, 0) / matches.length : 0,
    hitRatio: latencies.length ? hits / latencies.length : 0,
  };
}

interface CallResult {
  ok: boolean;
  matches?: number;
  hit?: boolean;
}

/** Closed loop: CONCURRENCY callers, each starting its next call when the last one ends. */
async function closedLoop(call: (i: number) => Promise<CallResult>): Promise<Latency> {
  let i = 0;
  let measuring = false;
  let stop = false;
  const latencies: number[] = [];
  const matches: number[] = [];
  let errors = 0;
  let hits = 0;
  const caller = async () => {
    while (!stop) {
      const t0 = performance.now();
      let r: CallResult;
      try {
        r = await call(i++);
      } catch {
        r = { ok: false };
      }
      const ms = performance.now() - t0;
      if (!measuring) continue;
      if (!r.ok) errors++;
      else {
        latencies.push(ms);
        if (r.hit === true) hits++;
        if (r.matches !== undefined) matches.push(r.matches);
      }
    }
  };
  const callers = Array.from({ length: CONCURRENCY }, caller);
  await new Promise((r) => setTimeout(r, WARMUP * 1000));
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(callers);
  return { ...quantiles(latencies, seconds, errors, matches, hits), sent: i };
}

function httpGetter(base: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const u = new URL(base);
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string; hit: boolean }>((resolve, reject) => {
      const options = { agent, host: u.hostname, port: u.port, path, method: 'GET', headers };
      const req = request(options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            hit: res.headers['x-cache'] === 'hit',
          })
        );
      });
      req.on('error', reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

/** Misspell a word the way people do: drop, swap or double one inner letter. */
export function typo(word: string, i: number): string {
  if (word.length < 5) return word;
  const at = 1 + (i % (word.length - 2));
  switch (i % 4) {
    case 0:
      return word.slice(0, at) + word.slice(at + 1);
    case 1:
      return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    case 2:
      return word.slice(0, at) + word[at] + word.slice(at);
    default:
      return word;
  }
}

export async function discoverBench(): Promise<DiscoverBenchReport> {
  const [first = AGENTS, ...rest] = SIZES;
  const report = await discoverAt(first);
  const larger = [];
  for (const agents of rest) larger.push(await discoverAt(agents, 'search,nearby'));
  return { ...report, larger };
}

/** Seed `agents`, measure the load in this process, then a hub's answers. */
async function discoverAt(
  agents: number,
  only?: string
): Promise<Omit<DiscoverBenchReport, 'larger'>> {
  const nats = await startNatsServer();
  const db = await seededDirectory(agents);
  const sql = createDb(db.url, { max: CONCURRENCY });
  let hub: Awaited<ReturnType<typeof startHubProcess>> | undefined;
  try {
    const load = await measureDirectoryLoad(db.url);
    // The directory this process just loaded is garbage now (a gigabyte at 1,000,000 agents;
    // test/integration/db-retention.int.test.ts keeps postgres.js from holding it): collected
    // here, not during the measurements, where the pauses would stall this load generator and
    // count as the hub's latency.
    const collect = (globalThis as { gc?: () => void }).gc;
    collect?.();
    collect?.();
    const kept = process.memoryUsage().heapUsed / 2 ** 20;
    if (kept > 200) {
      process.stderr.write(
        `discover: the load generator holds ${kept.toFixed(0)} MB after the load: its GC pauses will count as the hub's latency\n`
      );
    }
    hub = await startHubProcess({
      ...benchHubOptions(),
      // e.g. HUB_NODE_ARGS=--trace-gc with BENCH_HUB_LOG=/tmp/hub.log to see the hub's GC pauses.
      ...(process.env.HUB_NODE_ARGS ? { nodeArgs: process.env.HUB_NODE_ARGS.split(' ') } : {}),
      env: {
        NATS_URL: nats.url,
        DATABASE_URL: db.url,
        LOG_LEVEL: 'warn',
        ADMIN_TOKEN,
        ...(process.env.DATABASE_POOL_SIZE
          ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE }
          : {}),
        // DIRECTORY_IN_MEMORY=false measures the SQL path for comparison.
        ...(process.env.DIRECTORY_IN_MEMORY
          ? { DIRECTORY_IN_MEMORY: process.env.DIRECTORY_IN_MEMORY }
          : {}),
      },
    });
    // The hub answers with SQL until its own whole read is in: measure the in-memory answers.
    await directoryLoaded(hub.url);
    return {
      agents,
      locations: db.locations,
      seedSeconds: db.seedSeconds,
      seedCopied: db.copied,
      concurrency: CONCURRENCY,
      load,
      ...(await measureDirectory(hub.url, sql, only)),
    };
  } finally {
    if (hub !== undefined && process.env.HUB_NODE_ARGS) {
      // A clean exit, so that a --cpu-prof among the flags writes its profile.
      hub.kill('SIGTERM');
      await Promise.race([hub.exited, new Promise((r) => setTimeout(r, 15_000))]);
    }
    if (hub !== undefined && process.env.BENCH_HUB_LOG)
      copyFileSync(hub.logFile, `${process.env.BENCH_HUB_LOG}.${agents}`);
    await hub?.close();
    await sql.end({ timeout: 5 });
    await db.drop();
    await nats.close();
  }
}

/** Wait until the hub at `url` has its directory in memory (or does not keep one). */
async function directoryLoaded(url: string): Promise<void> {
  for (;;) {
    const r = await fetch(`${url}/debug/cluster`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    if (!r.ok) throw new Error(`/debug/cluster answered ${r.status}`);
    const { directory } = (await r.json()) as { directory: { loaded: boolean } | null };
    if (directory === null || directory.loaded) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export type DirectoryMeasures = Omit<
  DiscoverBenchReport,
  'agents' | 'locations' | 'seedSeconds' | 'seedCopied' | 'concurrency' | 'load' | 'larger'
>;

/** The measurements, against a hub at `hubUrl` serving the directory seeded in `sql`. */
export async function measureDirectory(
  hubUrl: string,
  sql: Db,
  only = process.env.BENCH_DIRECTORY_ONLY
): Promise<DirectoryMeasures> {
  const http = httpGetter(hubUrl);
  const counted = (r: { status: number; body: string; hit: boolean }) => ({
    ok: r.status === 200,
    // The count alone, without parsing the whole answer: the load generator shares the two cores
    // with the hub, so what it spends per answer lengthens the hub's measured tail.
    matches: r.status === 200 ? Number(/"count":(\d+)/.exec(r.body)?.[1] ?? NaN) : 0,
    hit: r.hit,
  });
  try {
    const selectOne = await closedLoop(async () => {
      await sql`select 1`;
      return { ok: true };
    });

    // q plus two filters, rotating over the filter pairs the spec lists.
    const filters = [
      (i: number) => `category=${CATEGORIES[i % CATEGORIES.length]}&verified=true`,
      (i: number) => `contentMode=${encodeURIComponent(MODES[i % MODES.length]!)}&country=FR`,
      (i: number) => `tag=${WORDS[(i * 9) % WORDS.length]}&sort=rating`,
      (i: number) => `skillTag=${WORDS[(i * 11) % WORDS.length]}&category=${CATEGORIES[i % 20]}`,
      (_i: number) => `contentMode=image/*&verified=false`,
    ];
    const searchPath = (i: number) => {
      const q = typo(WORDS[(i * 15) % WORDS.length]!, i);
      return `/api/discover/agents?q=${encodeURIComponent(q)}&${filters[i % filters.length]!(i)}`;
    };
    const nearbyPath = (i: number) => {
      const [lat, lng] = CITIES[i % CITIES.length]!;
      const radius = [5, 10, 25, 50][i % 4];
      return `/api/discover/agents/nearby?lat=${lat + 0.01}&lng=${lng - 0.01}&radius=${radius}`;
    };
    const distinct = (path: (i: number) => string, requests: number) =>
      new Set(Array.from({ length: requests }, (_, i) => path(i))).size;
    const skip: Latency = { ...quantiles([], 1, 0, [], 0), sent: 0 };
    const run = (name: string, call: (i: number) => Promise<CallResult>) =>
      only === undefined || only.split(',').includes(name) ? closedLoop(call) : skip;
    const fresh = { 'cache-control': 'no-cache' };
    const search = await run('search', async (i) => counted(await http.get(searchPath(i), fresh)));
    const nearby = await run('nearby', async (i) => counted(await http.get(nearbyPath(i), fresh)));
    const searchCached = await run('searchCached', async (i) =>
      counted(await http.get(searchPath(i), {}))
    );
    const nearbyCached = await run('nearbyCached', async (i) =>
      counted(await http.get(nearbyPath(i), {}))
    );
    return {
      selectOne,
      search,
      nearby,
      searchCached,
      nearbyCached,
      distinctSearches: distinct(searchPath, searchCached.sent),
      distinctNearby: distinct(nearbyPath, nearbyCached.sent),
    };
  } finally {
    http.close();
  }
}

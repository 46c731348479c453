// Patent upstream fixtures over one set of written-for-the-test patents (data-sources.md
// "patents"): the USPTO Open Data Portal (GET /api/v1/patent/applications/search?q=&offset=&limit=
// with an OpenSearch query string, GET /api/v1/patent/applications/{app}, X-API-KEY required,
// 404 when nothing matches) and a PatentsView-compatible host (GET /api/v1/patent/?q=&f=&s=&o=
// with JSON operators _or/_and/_text_any/_contains, cursor paging with o.after, X-Api-Key
// required). A query containing "outage" answers 500.
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

export interface FixturePatent {
  patentNumber: string;
  applicationNumber: string;
  title: string;
  abstract: string;
  assignee: string;
  inventors: string[];
  filingDate: string;
  grantDate: string;
  cpc: string;
}

const TOPICS = [
  {
    n: 15,
    assignees: ['International Business Machines Corporation', 'Google LLC'],
    cpc: 'G06N 20/00',
    title: (i: number) =>
      `Machine learning model training with ${['federated', 'sparse', 'contrastive', 'distilled', 'quantized'][i % 5]} neural networks (${i + 1})`,
    abstract:
      'A machine learning system trains a neural network model on labeled data and deploys the trained model for inference.',
  },
  {
    n: 10,
    assignees: ['Tesla, Inc.', 'Samsung SDI Co., Ltd.'],
    cpc: 'H01M 10/0562',
    title: (i: number) => `Solid-state battery with sulfide electrolyte layer (${i + 1})`,
    abstract:
      'A solid-state lithium battery cell comprising a sulfide solid electrolyte between the anode and the cathode.',
  },
  {
    n: 8,
    assignees: ['International Business Machines Corporation'],
    cpc: 'G06N 10/00',
    title: (i: number) => `Quantum computing qubit error correction circuit (${i + 1})`,
    abstract: 'A quantum processor applies error correction codes to superconducting qubits.',
  },
  {
    n: 7,
    assignees: ['Amazon Technologies, Inc.'],
    cpc: 'B64U 10/13',
    title: (i: number) => `Unmanned aerial vehicle package delivery route planning (${i + 1})`,
    abstract: 'A drone plans a delivery route and lowers a package at the destination.',
  },
  {
    // The research e2e's company, as the patent office spells its name.
    n: 2,
    assignees: ['Acme Pharma Corporation'],
    cpc: 'A61K 9/20',
    title: (i: number) => `Extended-release triptan tablet for migraine (${i + 1})`,
    abstract: 'An oral tablet releases a triptan over twelve hours to treat migraine.',
  },
];

export const PATENTS: readonly FixturePatent[] = TOPICS.flatMap((t, ti) =>
  Array.from({ length: t.n }, (_, i) => {
    const k = ti * 100 + i + 1;
    return {
      patentNumber: String(11_000_000 + k),
      applicationNumber: String(16_000_000 + k),
      title: t.title(i),
      abstract: t.abstract,
      assignee: t.assignees[i % t.assignees.length]!,
      inventors: [`Inventor ${k} Alpha`, `Inventor ${k} Beta`],
      filingDate: `20${19 + (i % 4)}-0${1 + (i % 9)}-15`,
      grantDate: `20${22 + (i % 3)}-0${1 + (i % 9)}-01`,
      cpc: t.cpc,
    };
  })
);

const STOP = new Set(['the', 'and', 'for', 'with', 'on', 'of', 'a', 'an', 'in', 'to', 'by']);

function words(s: string): string[] {
  return (s.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 2 && !STOP.has(w));
}

/** Any word (or its first five letters, for plurals) in the text. */
function anyWord(text: string, query: string): boolean {
  const hay = text.toLowerCase();
  return words(query).some((w) => hay.includes(w.length > 5 ? w.slice(0, 5) : w));
}

export function odpRecord(p: FixturePatent): Record<string, unknown> {
  return {
    applicationNumberText: p.applicationNumber,
    applicationMetaData: {
      inventionTitle: p.title,
      filingDate: p.filingDate,
      grantDate: p.grantDate,
      patentNumber: p.patentNumber,
      applicationTypeLabelName: 'Utility',
      applicationStatusDescriptionText: 'Patented Case',
      earliestPublicationNumber: `US2021${p.applicationNumber.slice(-7)}A1`,
      earliestPublicationDate: '2021-07-15',
      firstApplicantName: p.assignee,
      applicantBag: [{ applicantNameText: p.assignee }],
      inventorBag: p.inventors.map((n) => ({ inventorNameText: n })),
      cpcClassificationBag: [p.cpc],
    },
    assignmentBag: [{ assigneeBag: [{ assigneeNameText: p.assignee }] }],
  };
}

const ODP_FIELDS: Record<string, (p: FixturePatent) => string> = {
  'applicationMetaData.patentNumber': (p) => p.patentNumber,
  'applicationMetaData.firstApplicantName': (p) => p.assignee,
  'assignmentBag.assigneeBag.assigneeNameText': (p) => p.assignee,
  'applicationMetaData.inventionTitle': (p) => p.title,
};

const CLAUSE = /([\w.]+):(?:"([^"]*)"|(\S+))/g;

function odpMatch(q: string): (p: FixturePatent) => boolean {
  const clauses = [...q.matchAll(CLAUSE)];
  if (clauses.length === 0) return (p) => anyWord(p.title, q);
  return (p) =>
    clauses.some((m) => {
      const get = ODP_FIELDS[m[1]!];
      if (!get) return false;
      const v = get(p).toLowerCase();
      return m[2] !== undefined ? v.includes(m[2].toLowerCase()) : v === m[3]!.toLowerCase();
    });
}

export function startFakeOdp(apiKey: string): Promise<FixtureServer> {
  return startFixtureServer((req, res) => {
    if (req.headers['x-api-key'] !== apiKey) {
      return sendJson(res, 403, {
        code: 403,
        message: 'Forbidden',
        detailedMessage: 'Invalid or missing API key',
      });
    }
    const notFound = () =>
      sendJson(res, 404, {
        code: 404,
        error: 'Not Found',
        errorDetails: 'No matching records found',
      });
    if (req.path === '/api/v1/patent/applications/search') {
      const q = req.params.q ?? '';
      if (q.includes('outage')) {
        res
          .writeHead(500, 'Internal Server Error', { 'content-type': 'application/json' })
          .end('{"code":500}');
        return;
      }
      const offset = Number(req.params.offset ?? '0');
      const limit = Number(req.params.limit ?? '25');
      if (!(limit >= 1 && limit <= 100))
        return sendJson(res, 400, { code: 400, message: 'limit must be 1..100' });
      const all = PATENTS.filter(odpMatch(q));
      if (all.length === 0) return notFound();
      return sendJson(res, 200, {
        count: all.length,
        patentFileWrapperDataBag: all.slice(offset, offset + limit).map(odpRecord),
      });
    }
    const one = /^\/api\/v1\/patent\/applications\/(\d+)$/.exec(req.path);
    if (one) {
      const p = PATENTS.find((x) => x.applicationNumber === one[1]);
      return p
        ? sendJson(res, 200, { count: 1, patentFileWrapperDataBag: [odpRecord(p)] })
        : notFound();
    }
    notFound();
  });
}

type Q = Record<string, unknown>;

function pvValue(p: FixturePatent, field: string): string {
  switch (field) {
    case 'patent_id':
      return p.patentNumber;
    case 'patent_title':
      return p.title;
    case 'patent_abstract':
      return p.abstract;
    case 'assignees.assignee_organization':
      return p.assignee;
    default:
      return '';
  }
}

function pvMatch(q: Q, p: FixturePatent): boolean {
  return Object.entries(q).every(([op, v]) => {
    if (op === '_or') return (v as Q[]).some((x) => pvMatch(x, p));
    if (op === '_and') return (v as Q[]).every((x) => pvMatch(x, p));
    const [field, value] = Object.entries(v as Q)[0] ?? ['', ''];
    if (op === '_text_any') return anyWord(pvValue(p, field), String(value));
    if (op === '_contains')
      return pvValue(p, field).toLowerCase().includes(String(value).toLowerCase());
    if (op === '_eq') return pvValue(p, field) === String(value);
    return pvValue(p, op) === String(v);
  });
}

export function startFakePatentsView(apiKey: string): Promise<FixtureServer> {
  return startFixtureServer((req, res) => {
    if (req.headers['x-api-key'] !== apiKey) {
      return sendJson(res, 403, { error: true, reason: 'Invalid API key' });
    }
    if (req.path !== '/api/v1/patent/')
      return sendJson(res, 404, { error: true, reason: 'Not found' });
    let q: Q;
    let o: { size?: number; after?: string };
    try {
      q = JSON.parse(req.params.q ?? '{}') as Q;
      o = JSON.parse(req.params.o ?? '{}') as typeof o;
    } catch {
      return sendJson(res, 400, { error: true, reason: 'q and o must be JSON' });
    }
    if (JSON.stringify(q).includes('outage')) {
      res
        .writeHead(500, 'Internal Server Error', { 'content-type': 'application/json' })
        .end('{"error":true}');
      return;
    }
    const size = o.size ?? 100;
    if (size > 1000) return sendJson(res, 400, { error: true, reason: 'size must be ≤ 1000' });
    const all = PATENTS.filter((p) => pvMatch(q, p)).sort((a, b) =>
      a.patentNumber.localeCompare(b.patentNumber)
    );
    const rest = o.after === undefined ? all : all.filter((p) => p.patentNumber > o.after!);
    const page = rest.slice(0, size);
    sendJson(res, 200, {
      error: false,
      count: page.length,
      total_hits: all.length,
      patents: page.map((p) => ({
        patent_id: p.patentNumber,
        patent_title: p.title,
        patent_date: p.grantDate,
        patent_abstract: p.abstract,
        assignees: [{ assignee_organization: p.assignee }],
        inventors: p.inventors.map((n) => {
          const [first, ...last] = n.split(' ');
          return { inventor_name_first: first, inventor_name_last: last.join(' ') };
        }),
      })),
    });
  });
}

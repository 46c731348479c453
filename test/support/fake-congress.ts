// Fixtures of the two congressional disclosure sites (data-sources.md "congress-trades"), on one
// loopback server:
// - House Clerk: GET /public_disc/financial-pdfs/{YEAR}FD.zip, a real zip holding {YEAR}FD.xml
//   (<FinancialDisclosure><Member>… with empty <Suffix />, annual filings mixed in) and {YEAR}FD.txt;
//   GET /public_disc/ptr-pdfs/{YEAR}/{DocID}.pdf: e-filed PTRs with a text layer and one scan (an
//   image-only page). 2024FD.zip is not there (404); 2023FD.zip answers 503; the PDF of
//   last year's DocID 20020002 answers 429 with Retry-After: 1 the first time.
// - Senate eFD, a Django site: GET /search/home/ sets the csrftoken cookie and puts a masked token
//   in the agreement form; POST /search/home/ needs that token (or the cookie's), a Referer on the
//   site and prohibition_agreement=1, and sets sessionid. Without an agreed session, the search and
//   report pages redirect to /search/home/; a POST without a valid CSRF token is a 403. POST
//   /search/report/data/ answers DataTables JSON (start/length, report_types=[11], submitted dates,
//   last_name, order), GET /search/view/ptr/{id}/ the report's table. last_name "Outage" answers
//   503; "Expired" drops the session on its first search, as an expired session does.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import { housePtrPdf, scannedPdf, type PtrFixtureRow } from './pdf-fixtures.js';

export interface CongressRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  form: Record<string, string>;
  headers: IncomingMessage['headers'];
  at: number;
}

export interface FakeCongress {
  readonly origin: string;
  readonly requests: CongressRequest[];
  /** Requests whose path starts with `prefix`, of `method` when given. */
  to(prefix: string, method?: string): CongressRequest[];
  close(): Promise<void>;
}

const DAY = 86_400_000;
/** A date `daysAgo` before now, as YYYY-MM-DD. */
export function daysAgo(n: number, now = Date.now()): string {
  return new Date(now - n * DAY).toISOString().slice(0, 10);
}
const us = (iso: string, pad = true) => {
  const [y, m, d] = iso.split('-');
  return pad ? `${m}/${d}/${y}` : `${Number(m)}/${Number(d)}/${y}`;
};

interface HouseFiling {
  prefix: string;
  first: string;
  last: string;
  stateDst: string;
  type: 'P' | 'O' | 'A';
  filed: string;
  docId: string;
  rows?: PtrFixtureRow[];
  scanned?: boolean;
}

interface SenateFiling {
  first: string;
  last: string;
  id: string;
  filed: string;
  paper?: boolean;
  rows?: Array<[string, string, string, string, string, string, string, string]>;
}

/** The fixture's filings, dated relative to now so "recent" windows hold them. */
export function congressData(now = Date.now()) {
  const thisYear = new Date(now).getUTCFullYear();
  const row = (
    asset: string,
    type: PtrFixtureRow['type'],
    date: string,
    amount: string,
    owner?: PtrFixtureRow['owner']
  ): PtrFixtureRow => ({
    asset,
    type,
    date: us(date),
    notified: us(date),
    amount,
    ...(owner ? { owner } : {}),
  });
  const house: HouseFiling[] = [
    {
      prefix: 'Hon.',
      first: 'Nancy',
      last: 'Pelosi',
      stateDst: 'CA11',
      type: 'P',
      filed: daysAgo(5, now),
      docId: '20030001',
      rows: [
        row(
          'NVIDIA Corporation - Common Stock (NVDA) [OP]',
          'P',
          daysAgo(8, now),
          '$1,000,001 - $5,000,000',
          'SP'
        ),
        row('US Treasury Bill [GS]', 'S (partial)', daysAgo(9, now), '$15,001 - $50,000'),
      ],
    },
    {
      prefix: 'Hon.',
      first: 'Nancy',
      last: 'Pelosi',
      stateDst: 'CA11',
      type: 'P',
      filed: daysAgo(40, now),
      docId: '20030002',
      rows: [
        row(
          'Apple Inc. - Common Stock (AAPL) [ST]',
          'S',
          daysAgo(45, now),
          '$5,000,001 - $25,000,000',
          'SP'
        ),
        row(
          'Microsoft Corporation - Common Stock (MSFT) [ST]',
          'P',
          daysAgo(46, now),
          '$250,001 - $500,000',
          'JT'
        ),
      ],
    },
    {
      prefix: 'Hon.',
      first: 'Nancy',
      last: 'Pelosi',
      stateDst: 'CA11',
      type: 'O',
      filed: daysAgo(30, now),
      docId: '10060001',
    },
    {
      prefix: 'Hon.',
      first: 'Jason',
      last: 'Smith',
      stateDst: 'MO08',
      type: 'P',
      filed: daysAgo(3, now),
      docId: '8221001',
      scanned: true,
    },
    {
      prefix: 'Hon.',
      first: 'Marjorie Taylor',
      last: 'Greene',
      stateDst: 'GA14',
      type: 'P',
      filed: daysAgo(10, now),
      docId: '20030003',
      rows: [
        row(
          'NVIDIA Corporation - Common Stock (NVDA) [ST]',
          'S',
          daysAgo(12, now),
          '$1,001 - $15,000'
        ),
        row(
          'Microsoft Corporation - Common Stock (MSFT) [ST]',
          'P',
          daysAgo(12, now),
          '$1,001 - $15,000'
        ),
      ],
    },
  ].map((f) => ({ ...f, type: f.type as HouseFiling['type'] }));
  const lastYear: HouseFiling[] = [
    {
      prefix: 'Hon.',
      first: 'Terry',
      last: 'Throttle',
      stateDst: 'OH03',
      type: 'P',
      filed: `${thisYear - 1}-03-02`,
      docId: '20020002',
      rows: [row('Ford Motor Company (F) [ST]', 'P', `${thisYear - 1}-02-20`, '$1,001 - $15,000')],
    },
    {
      prefix: 'Hon.',
      first: 'Nancy',
      last: 'Pelosi',
      stateDst: 'CA11',
      type: 'P',
      filed: `${thisYear - 1}-06-10`,
      docId: '20020001',
      rows: [
        row(
          'Tesla, Inc. - Common Stock (TSLA) [ST]',
          'P',
          `${thisYear - 1}-06-01`,
          '$100,001 - $250,000',
          'SP'
        ),
      ],
    },
  ];
  const senate: SenateFiling[] = [
    {
      first: 'Tommy',
      last: 'Tuberville',
      id: 'a5c3e1f0-1111-4a2b-9c3d-000000000001',
      filed: daysAgo(2, now),
      rows: [
        [
          us(daysAgo(6, now)),
          'Spouse',
          'NVDA',
          'NVIDIA Corporation',
          'Stock',
          'Purchase',
          '$15,001 - $50,000',
          '--',
        ],
        [
          us(daysAgo(7, now)),
          'Self',
          '--',
          'Alabama St Pub Sch 5% 05/01/2030',
          'Municipal Security',
          'Sale (Full)',
          '$50,001 - $100,000',
          'Called',
        ],
      ],
    },
    {
      first: 'Tommy',
      last: 'Tuberville',
      id: 'a5c3e1f0-1111-4a2b-9c3d-000000000002',
      filed: daysAgo(20, now),
      paper: true,
    },
    {
      first: 'Shelley M',
      last: 'Capito',
      id: 'a5c3e1f0-1111-4a2b-9c3d-000000000003',
      filed: daysAgo(50, now),
      rows: [
        [
          us(daysAgo(52, now)),
          'Joint',
          'AAPL',
          'Apple Inc.',
          'Stock',
          'Sale (Partial)',
          '$1,001 - $15,000',
          '--',
        ],
      ],
    },
    ...Array.from({ length: 120 }, (_, i): SenateFiling => ({
      first: 'Pat',
      last: `Filler${String(i).padStart(3, '0')}`,
      id: `f0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      filed: daysAgo(100 + i, now),
      rows: [
        [
          us(daysAgo(101 + i, now)),
          'Self',
          'KO',
          'The Coca-Cola Company',
          'Stock',
          'Purchase',
          '$1,001 - $15,000',
          '--',
        ],
      ],
    })),
  ];
  return { thisYear, house: { [thisYear]: house, [thisYear - 1]: lastYear }, senate };
}

function indexXml(year: number, filings: HouseFiling[]): string {
  const member = (f: HouseFiling) =>
    `  <Member>\r\n    <Prefix>${f.prefix}</Prefix>\r\n    <Last>${f.last}</Last>\r\n` +
    `    <First>${f.first}</First>\r\n    <Suffix />\r\n    <FilingType>${f.type}</FilingType>\r\n` +
    `    <StateDst>${f.stateDst}</StateDst>\r\n    <Year>${year}</Year>\r\n` +
    `    <FilingDate>${us(f.filed, false)}</FilingDate>\r\n    <DocID>${f.docId}</DocID>\r\n  </Member>\r\n`;
  return (
    '\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<FinancialDisclosure ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">\r\n' +
    filings.map(member).join('') +
    '</FinancialDisclosure>'
  );
}

function indexTxt(year: number, filings: HouseFiling[]): string {
  const head = 'Prefix\tLast\tFirst\tSuffix\tFilingType\tStateDst\tYear\tFilingDate\tDocID';
  const rows = filings.map((f) =>
    [f.prefix, f.last, f.first, '', f.type, f.stateDst, year, us(f.filed, false), f.docId].join(
      '\t'
    )
  );
  return [head, ...rows].join('\r\n');
}

const mask = (secret: string) => {
  const salt = randomBytes(16).toString('hex').slice(0, 32);
  return salt + [...secret].reverse().join('');
};
const unmask = (token: string) =>
  token.length === 64 ? [...token.slice(32)].reverse().join('') : token;

function cookiesOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

const HOME_HTML = (token: string) => `<!DOCTYPE html>
<html lang="en"><head><title>eFD: Home</title></head><body>
<div class="container"><h1>Financial Disclosures</h1>
<form id="agreement_form" action="/search/home/" method="POST">
<input type="hidden" name="csrfmiddlewaretoken" value="${token}">
<p>Prohibition on Use of Information: … the Ethics in Government Act of 1978 …</p>
<div class="form-check"><input class="form-check-input" type="checkbox" name="prohibition_agreement" id="agree_statement" value="1">
<label for="agree_statement">I understand the prohibitions on obtaining and use of financial disclosure reports.</label></div>
</form></div></body></html>`;

function ptrHtml(f: SenateFiling): string {
  const rows = (f.rows ?? [])
    .map(
      (r, i) =>
        `<tr class="nowrap"><td>${i + 1}</td><td>${r[0]}</td><td>${r[1]}</td><td>` +
        (r[2] === '--'
          ? '--'
          : `<a href="https://finance.yahoo.com/quote/${r[2]}" target="_blank">${r[2]}</a>`) +
        `</td><td>${r[3]}\n  <div class="text-muted"></div></td><td>${r[4]}</td><td>${r[5]}</td>` +
        `<td>${r[6]}</td><td>${r[7]}</td></tr>`
    )
    .join('\n');
  return `<!DOCTYPE html><html lang="en"><head><title>eFD: Periodic Transaction Report</title></head>
<body><div class="container"><h1>Periodic Transaction Report for ${us(f.filed)}</h1>
<h2 class="filedReport">The Honorable ${f.first} ${f.last} (${f.last}, ${f.first})</h2>
<section class="card mb-2"><div class="card-body"><h3 class="h4">Transactions</h3>
<div class="table-responsive"><table class="table table-striped">
<thead><tr class="header"><th scope="col">#</th><th scope="col">Transaction Date</th>
<th scope="col">Owner</th><th scope="col">Ticker</th><th scope="col">Asset Name</th>
<th scope="col">Asset Type</th><th scope="col">Type</th><th scope="col">Amount</th>
<th scope="col">Comment</th></tr></thead>
<tbody>
${rows}
</tbody></table></div></div></section></div></body></html>`;
}

/** "MM/DD/YYYY HH:MM:SS" → YYYY-MM-DD, or undefined. */
function formDate(s: string | undefined): string | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(s ?? '');
  return m ? `${m[3]}-${m[1]}-${m[2]}` : undefined;
}

export async function startFakeCongress(now = Date.now()): Promise<FakeCongress> {
  const data = congressData(now);
  const pdfs = new Map<string, Buffer>();
  const zips = new Map<number, Uint8Array>();
  for (const [y, filings] of Object.entries(data.house)) {
    const year = Number(y);
    zips.set(
      year,
      zipSync({
        [`${year}FD.txt`]: strToU8(indexTxt(year, filings)),
        [`${year}FD.xml`]: strToU8(indexXml(year, filings)),
      })
    );
    for (const f of filings) {
      if (f.type !== 'P') continue;
      pdfs.set(
        `${year}/${f.docId}`,
        f.scanned
          ? scannedPdf()
          : housePtrPdf({
              filingId: f.docId,
              name: `${f.prefix} ${f.first} ${f.last}`,
              stateDst: f.stateDst,
              rows: f.rows ?? [],
            })
      );
    }
  }
  const secrets = new Set<string>();
  const sessions = new Set<string>();
  const requests: CongressRequest[] = [];
  const sockets = new Set<Socket>();
  let origin = '';

  const handle = (req: IncomingMessage, r: CongressRequest, res: ServerResponse) => {
    const send = (status: number, type: string, body: string | Uint8Array, h = {}) =>
      res.writeHead(status, { 'content-type': type, ...h }).end(body);
    const cookies = cookiesOf(req);
    const zip = /^\/public_disc\/financial-pdfs\/(\d{4})FD\.zip$/.exec(r.path);
    if (zip) {
      const year = Number(zip[1]);
      if (year === 2023) return send(503, 'text/html', '<h1>Service Unavailable</h1>');
      const z = zips.get(year);
      if (!z) return send(404, 'text/html', '<h1>404 - File or directory not found.</h1>');
      return send(200, 'application/x-zip-compressed', z);
    }
    const pdf = /^\/public_disc\/ptr-pdfs\/(\d{4}\/\d+)\.pdf$/.exec(r.path);
    if (pdf) {
      // The first request for this report is throttled, as the Clerk's CDN does under load.
      if (pdf[1]!.endsWith('/20020002') && !throttled) {
        throttled = true;
        return send(429, 'text/html', '<h1>Too Many Requests</h1>', { 'retry-after': '1' });
      }
      const p = pdfs.get(pdf[1]!);
      if (!p) return send(404, 'text/html', '<h1>404 - File or directory not found.</h1>');
      return send(200, 'application/pdf', p);
    }

    const csrfOk = () => {
      const secret = cookies.csrftoken;
      if (!secret || !secrets.has(secret)) return false;
      const token = r.form.csrfmiddlewaretoken ?? String(req.headers['x-csrftoken'] ?? '');
      const referer = String(req.headers.referer ?? '');
      return unmask(token) === secret && referer.startsWith(`${origin}/`);
    };
    const forbidden = () =>
      send(
        403,
        'text/html',
        '<h1>Forbidden (403)</h1><p>CSRF verification failed. Request aborted.</p>'
      );
    const toHome = () =>
      res.writeHead(302, { location: `/search/home/?next=${encodeURIComponent(r.path)}` }).end();
    const agreed = () => cookies.sessionid !== undefined && sessions.has(cookies.sessionid);

    if (r.path === '/search/home/' && r.method === 'GET') {
      let secret = cookies.csrftoken;
      const h: Record<string, string> = {};
      if (!secret || !secrets.has(secret)) {
        secret = randomBytes(16).toString('hex');
        secrets.add(secret);
        h['set-cookie'] =
          `csrftoken=${secret}; expires=Fri, 26 Nov 2027 00:00:00 GMT; Max-Age=31449600; Path=/; SameSite=Lax; Secure`;
      }
      return send(200, 'text/html; charset=utf-8', HOME_HTML(mask(secret)), h);
    }
    if (r.path === '/search/home/' && r.method === 'POST') {
      if (!csrfOk()) return forbidden();
      if (r.form.prohibition_agreement !== '1') {
        return send(200, 'text/html; charset=utf-8', HOME_HTML(mask(cookies.csrftoken!)));
      }
      const sid = randomBytes(16).toString('hex');
      sessions.add(sid);
      return res
        .writeHead(302, {
          location: '/search/',
          'set-cookie': `sessionid=${sid}; HttpOnly; Path=/; SameSite=Lax; Secure`,
        })
        .end();
    }
    if (r.path === '/search/report/data/' && r.method === 'POST') {
      if (!agreed()) return toHome();
      if (!csrfOk()) return forbidden();
      const last = (r.form.last_name ?? '').toLowerCase();
      if (last === 'outage') return send(503, 'text/html', '<h1>Service Unavailable</h1>');
      if (last === 'expired' && !expiredOnce) {
        expiredOnce = true;
        sessions.delete(cookies.sessionid!);
        return toHome();
      }
      if (r.form.report_types !== '[11]') {
        return send(
          200,
          'application/json',
          JSON.stringify({ draw: 1, recordsTotal: 0, recordsFiltered: 0, data: [], result: 'ok' })
        );
      }
      const from = formDate(r.form.submitted_start_date) ?? '0000-00-00';
      const to = formDate(r.form.submitted_end_date) ?? '9999-99-99';
      let rows = data.senate.filter(
        (f) => f.filed >= from && f.filed <= to && f.last.toLowerCase().startsWith(last)
      );
      rows = rows.sort((a, b) => a.filed.localeCompare(b.filed));
      if (r.form['order[0][column]'] === '4' && r.form['order[0][dir]'] === 'desc') rows.reverse();
      const start = Number(r.form.start ?? 0);
      const length = Math.min(Number(r.form.length ?? 100), 100);
      const page = rows
        .slice(start, start + length)
        .map((f) => [
          f.first,
          f.last,
          `${f.last}, ${f.first} (Senator)`,
          `<a href="/search/view/${f.paper ? 'paper' : 'ptr'}/${f.id}/" target="_blank">Periodic Transaction Report for ${us(f.filed)}</a>`,
          us(f.filed),
        ]);
      return send(
        200,
        'application/json',
        JSON.stringify({
          draw: Number(r.form.draw ?? 1),
          recordsTotal: rows.length,
          recordsFiltered: rows.length,
          data: page,
          result: 'ok',
        })
      );
    }
    const view = /^\/search\/view\/(ptr|paper)\/([\w-]+)\/$/.exec(r.path);
    if (view && r.method === 'GET') {
      if (!agreed()) return toHome();
      const f = data.senate.find((x) => x.id === view[2]);
      if (!f || Boolean(f.paper) !== (view[1] === 'paper')) {
        return send(404, 'text/html', '<h1>Not Found</h1>');
      }
      return send(200, 'text/html; charset=utf-8', ptrHtml(f));
    }
    return send(404, 'text/html', '<h1>Not Found</h1>');
  };
  let expiredOnce = false;
  let throttled = false;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fixture.local');
      const body = Buffer.concat(chunks).toString('utf8');
      const r: CongressRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        params: Object.fromEntries(url.searchParams),
        form: Object.fromEntries(new URLSearchParams(body)),
        headers: req.headers,
        at: Date.now(),
      };
      requests.push(r);
      try {
        handle(req, r, res);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    to: (prefix, method) =>
      requests.filter(
        (q) => q.path.startsWith(prefix) && (method === undefined || q.method === method)
      ),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

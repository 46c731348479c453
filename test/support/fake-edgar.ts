// An SEC EDGAR fixture (data-sources.md "sec-filings", "insider-trades", "companies"), one server
// for the SEC's three hosts: www (GET /files/company_tickers.json, the Archives' index.json and
// documents, the getcurrent Atom feed), data (GET /submissions/CIK##########.json with columnar
// `filings.recent` and older pages in `files[]`, S3's XML 404 for an unknown CIK) and EFTS
// (GET /LATEST/search-index, Elasticsearch-shaped, `from` paging of 100). Like the SEC it answers
// 403 to a User-Agent without a contact email. Data written for the tests: Apple (with insiders and
// their Form 4s, a proxy tagging ecd:PeoName, older 10-Ks on an older page), Tesla, Microsoft,
// Apple Hospitality REIT (a name clash) and Berkshire (two share classes on one CIK); the filers
// and their submissions are in fake-edgar-filers.ts. The term "upstream down" makes EFTS answer 500.
import type { ServerResponse } from 'node:http';
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';
import {
  FORM4S,
  INSIDERS,
  TICKERS,
  appleOlderFilings,
  companySubmissions,
  monthsAgo,
  ownerSubmissions,
  type FixtureForm4,
  type FixtureTx,
} from './fake-edgar-filers.js';

export { FORM4S, INSIDERS, TICKERS, monthsAgo, type FixtureForm4, type FixtureTx };

/** The ownershipDocument a filer would send for one fixture Form 4. */
export function form4Xml(f: FixtureForm4): string {
  const who = INSIDERS[f.ownerCik]!;
  const date = monthsAgo(f.monthsAgo, f.day);
  const tx = (t: FixtureTx) => `
        <securityTitle><value>${t.derivative ? 'Restricted Stock Unit' : 'Common Stock'}</value></securityTitle>
        ${t.derivative ? '<conversionOrExercisePrice><footnoteId id="F1"/></conversionOrExercisePrice>' : ''}
        <transactionDate><value>${date}</value></transactionDate>
        <transactionCoding>
            <transactionFormType>4</transactionFormType>
            <transactionCode>${t.code}</transactionCode>
            <equitySwapInvolved>0</equitySwapInvolved>
        </transactionCoding>
        <transactionAmounts>
            <transactionShares><value>${t.shares}</value></transactionShares>
            <transactionPricePerShare>${t.price > 0 ? `<value>${t.price}</value><footnoteId id="F2"/>` : '<footnoteId id="F1"/>'}</transactionPricePerShare>
            <transactionAcquiredDisposedCode><value>${t.ad}</value></transactionAcquiredDisposedCode>
        </transactionAmounts>
        <postTransactionAmounts>
            <sharesOwnedFollowingTransaction><value>${t.after}</value></sharesOwnedFollowingTransaction>
        </postTransactionAmounts>
        <ownershipNature>
            <directOrIndirectOwnership><value>D</value></directOrIndirectOwnership>
        </ownershipNature>`;
  const nd = f.txs.filter((t) => !t.derivative);
  const d = f.txs.filter((t) => t.derivative);
  return `<?xml version="1.0"?>
<ownershipDocument>
    <schemaVersion>X0508</schemaVersion>
    <documentType>4</documentType>
    <periodOfReport>${date}</periodOfReport>
    <notSubjectToSection16>0</notSubjectToSection16>
    <issuer>
        <issuerCik>0000320193</issuerCik>
        <issuerName>Apple Inc.</issuerName>
        <issuerTradingSymbol>AAPL</issuerTradingSymbol>
    </issuer>
    <reportingOwner>
        <reportingOwnerId>
            <rptOwnerCik>${String(f.ownerCik).padStart(10, '0')}</rptOwnerCik>
            <rptOwnerName>${who.name}</rptOwnerName>
        </reportingOwnerId>
        <reportingOwnerAddress>
            <rptOwnerStreet1>ONE APPLE PARK WAY</rptOwnerStreet1>
            <rptOwnerCity>CUPERTINO</rptOwnerCity>
            <rptOwnerState>CA</rptOwnerState>
            <rptOwnerZipCode>95014</rptOwnerZipCode>
        </reportingOwnerAddress>
        <reportingOwnerRelationship>
            <isDirector>${who.director ? '1' : '0'}</isDirector>
            <isOfficer>${who.officer ? 'true' : 'false'}</isOfficer>
            ${who.officer ? `<officerTitle>${who.officer}</officerTitle>` : ''}
            <isTenPercentOwner>0</isTenPercentOwner>
        </reportingOwnerRelationship>
    </reportingOwner>
    <aff10b5One>0</aff10b5One>
    <nonDerivativeTable>${nd
      .map(
        (t) => `
        <nonDerivativeTransaction>${tx(t)}
        </nonDerivativeTransaction>`
      )
      .join('')}
    </nonDerivativeTable>
    <derivativeTable>${d
      .map(
        (t) => `
        <derivativeTransaction>${tx(t)}
        </derivativeTransaction>`
      )
      .join('')}
    </derivativeTable>
    <footnotes>
        <footnote id="F1">Each restricted stock unit represents the right to receive one share.</footnote>
        <footnote id="F2">The price reported is a weighted average price.</footnote>
    </footnotes>
    <ownerSignature>
        <signatureName>/s/ Sam Whittington, Attorney-in-Fact for ${who.name}</signatureName>
        <signatureDate>${date}</signatureDate>
    </ownerSignature>
</ownershipDocument>
`;
}

const PROXY_HTML = `<html><body><div>
<p>Pay Versus Performance</p>
<table><tr><td>Summary Compensation Table Total for
<ix:nonNumeric name="ecd:PeoName" contextRef="c-12" id="f-40">Timothy D. Cook</ix:nonNumeric></td>
<td><ix:nonNumeric name="ecd:PeoName" contextRef="c-13" id="f-41"><span>Timothy&#160;D. Cook</span></ix:nonNumeric></td></tr></table>
</div></body></html>`;

/** Documents in the Archives: path under /Archives/edgar/data/ → body. */
function archive(): Map<string, { type: string; body: string }> {
  const m = new Map<string, { type: string; body: string }>();
  const folder = (cik: number, accession: string) =>
    `/Archives/edgar/data/${cik}/${accession.replace(/-/g, '')}`;
  const add = (cik: number, accession: string, files: Array<[string, string, string]>) => {
    const base = folder(cik, accession);
    const items = [
      {
        'last-modified': '2026-10-31 06:01:36',
        name: `${accession}-index-headers.html`,
        type: 'text.gif',
        size: '',
      },
      {
        'last-modified': '2026-10-31 06:01:36',
        name: `${accession}-index.html`,
        type: 'text.gif',
        size: '',
      },
      // Renderings (xslF345X05/…) are made on request: the folder's index does not list them.
      ...files
        .filter(([name]) => !name.includes('/'))
        .map(([name, , body]) => ({
          'last-modified': '2026-10-31 06:01:36',
          name,
          type: 'text.gif',
          size: String(Buffer.byteLength(body)),
        })),
      {
        'last-modified': '2026-10-31 06:01:36',
        name: `${accession}.txt`,
        type: 'text.gif',
        size: '5120',
      },
    ];
    m.set(`${base}/index.json`, {
      type: 'application/json',
      body: JSON.stringify({
        directory: { item: items, name: base, 'parent-dir': `/Archives/edgar/data/${cik}` },
      }),
    });
    for (const [name, type, body] of files) m.set(`${base}/${name}`, { type, body });
  };
  add(320193, '0000320193-25-000079', [
    ['aapl-20250927.htm', 'text/html', '<html><body>Apple Inc. Form 10-K</body></html>'],
    ['aapl-20250927_htm.xml', 'application/xml', '<xbrl/>'],
    ['R1.htm', 'text/html', '<html/>'],
  ]);
  add(320193, '0000320193-26-000011', [['aapl4359751-def14a.htm', 'text/html', PROXY_HTML]]);
  for (const f of FORM4S) {
    const n = f.accession.slice(-6);
    const xml = form4Xml(f);
    const files: Array<[string, string, string]> = [
      [`wf-form4_${n}.xml`, 'text/xml', xml],
      [
        `xslF345X05/wf-form4_${n}.xml`,
        'text/html',
        `<html><body>Rendered Form 4 ${f.accession}</body></html>`,
      ],
    ];
    // EDGAR serves a filing's folder under every CIK it involves: the issuer's and the owner's.
    add(320193, f.accession, files);
    add(f.ownerCik, f.accession, files);
  }
  return m;
}

/** Full-text search documents: what EFTS would index (one per hit). */
const DOCS = [
  {
    adsh: '0000320193-25-000079',
    file: 'aapl-20250927.htm',
    cik: 320193,
    form: '10-K',
    date: '2025-10-31',
    period: '2025-09-27',
    name: 'Apple Inc.  (AAPL)  (CIK 0000320193)',
    text: 'supply chain disruption could affect our results',
    loc: 'Cupertino, CA',
  },
  {
    adsh: '0001628280-26-000100',
    file: 'tsla-20260930.htm',
    cik: 1318605,
    form: '10-Q',
    date: '2026-10-23',
    period: '2026-09-30',
    name: 'Tesla, Inc.  (TSLA)  (CIK 0001318605)',
    text: 'supply chain disruption and raw material costs',
    loc: 'Austin, TX',
  },
  {
    adsh: '0000950170-26-000010',
    file: 'msft-10k_20260630.htm',
    cik: 789019,
    form: '10-K',
    date: '2026-07-30',
    period: '2026-06-30',
    name: 'MICROSOFT CORP  (MSFT)  (CIK 0000789019)',
    text: 'cloud supply constraints; no going concern doubt',
    loc: 'Redmond, WA',
  },
];

/** Each Form 4 as EFTS indexes it: the reporting owner and the issuer in display_names. */
function form4Docs() {
  return FORM4S.map((f) => {
    const who = INSIDERS[f.ownerCik]!;
    return {
      adsh: f.accession,
      file: `wf-form4_${f.accession.slice(-6)}.xml`,
      cik: f.ownerCik,
      ciks: [f.ownerCik, 320193],
      form: '4',
      date: monthsAgo(f.monthsAgo, f.day + 1),
      period: monthsAgo(f.monthsAgo, f.day),
      names: [
        `${who.name}  (CIK ${String(f.ownerCik).padStart(10, '0')})`,
        'Apple Inc.  (AAPL)  (CIK 0000320193)',
      ],
      text: `${who.name} apple inc. common stock`.toLowerCase(),
      loc: 'Cupertino, CA',
    };
  });
}

function efts(p: Record<string, string>, res: ServerResponse): void {
  const q = (p.q ?? '').toLowerCase();
  if (q.includes('upstream down')) {
    res.writeHead(500, { 'content-type': 'text/html' }).end('<html>Internal Server Error</html>');
    return;
  }
  const phrase = /^"(.*)"$/.exec(q)?.[1];
  const words = q.split(/\s+/).filter((w) => w !== '');
  const forms = p.forms ? p.forms.split(',') : [];
  const ciks = p.ciks ? p.ciks.split(',').map(Number) : [];
  const all = [...DOCS.map((d) => ({ ...d, ciks: [d.cik], names: [d.name] })), ...form4Docs()];
  const hits = all.filter(
    (d) =>
      (phrase !== undefined ? d.text.includes(phrase) : words.every((w) => d.text.includes(w))) &&
      (forms.length === 0 || forms.includes(d.form)) &&
      (ciks.length === 0 || d.ciks.some((c) => ciks.includes(c))) &&
      (p.startdt === undefined || d.date >= p.startdt) &&
      (p.enddt === undefined || d.date <= p.enddt)
  );
  const from = Number(p.from ?? 0);
  sendJson(res, 200, {
    took: 12,
    timed_out: false,
    _shards: { total: 50, successful: 50, skipped: 0, failed: 0 },
    hits: {
      total: { value: hits.length, relation: 'eq' },
      max_score: hits.length > 0 ? 9.1 : null,
      hits: hits.slice(from, from + 100).map((d) => ({
        _index: 'edgar_file',
        _id: `${d.adsh}:${d.file}`,
        _score: 9.1,
        _source: {
          ciks: d.ciks.map((c) => String(c).padStart(10, '0')),
          period_ending: d.period,
          file_num: ['001-36743'],
          display_names: d.names,
          xsl: null,
          sequence: 1,
          root_forms: [d.form],
          file_date: d.date,
          biz_states: [d.loc.slice(-2)],
          sics: ['3571'],
          form: d.form,
          adsh: d.adsh,
          film_num: ['241416806'],
          biz_locations: [d.loc],
          file_type: d.form,
          file_description: d.form === '10-K' ? '10-K' : null,
          inc_states: ['CA'],
          items: [],
        },
      })),
    },
    aggregations: { form_filter: { buckets: [] } },
    query: { query: { bool: {} } },
  });
}

function atom(): string {
  const entries = FORM4S.slice(0, 3).flatMap((f) => {
    const who = INSIDERS[f.ownerCik]!;
    const filed = monthsAgo(f.monthsAgo, f.day + 1);
    const folder = f.accession.replace(/-/g, '');
    const e = (name: string, cik: number, role: string) => `
<entry>
<title>4 - ${name} (${String(cik).padStart(10, '0')}) (${role})</title>
<link rel="alternate" type="text/html" href="https://www.sec.gov/Archives/edgar/data/${cik}/${folder}/${f.accession}-index.htm"/>
<summary type="html"> &lt;b&gt;Filed:&lt;/b&gt; ${filed} &lt;b&gt;AccNo:&lt;/b&gt; ${f.accession} &lt;b&gt;Size:&lt;/b&gt; 5 KB</summary>
<updated>${filed}T18:30:12-05:00</updated>
<category scheme="https://www.sec.gov/" label="form type" term="4"/>
<id>urn:tag:sec.gov,2008:accession-number=${f.accession}</id>
</entry>`;
    return [e(who.name, f.ownerCik, 'Reporting'), e('Apple Inc.', 320193, 'Issuer')];
  });
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>Latest Filings - ${new Date().toUTCString()}</title>
<link rel="alternate" href="/cgi-bin/browse-edgar?action=getcurrent"/>
<link rel="self" href="/cgi-bin/browse-edgar?action=getcurrent"/>
<id>https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent</id>
<author><name>Webmaster</name><email>webmaster@sec.gov</email></author>
<updated>${new Date().toISOString()}</updated>${entries.join('')}
</feed>`;
}

const NO_SUCH_KEY =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>';

export async function startFakeEdgar(): Promise<FixtureServer> {
  const docs = archive();
  return startFixtureServer((r, res) => {
    const ua = String(r.headers['user-agent'] ?? '');
    if (!/@/.test(ua)) {
      res
        .writeHead(403, { 'content-type': 'text/html' })
        .end('<html><h1>Your Request Originates from an Undeclared Automated Tool</h1></html>');
      return;
    }
    if (r.path === '/files/company_tickers.json') {
      sendJson(res, 200, Object.fromEntries(TICKERS.map((t, i) => [String(i), t])));
      return;
    }
    const sub = /^\/submissions\/CIK(\d{10})(-submissions-001)?\.json$/.exec(r.path);
    if (sub) {
      const cik = Number(sub[1]);
      if (sub[2] !== undefined && cik === 320193) {
        sendJson(res, 200, appleOlderFilings());
        return;
      }
      const body =
        sub[2] === undefined ? (companySubmissions(cik) ?? ownerSubmissions(cik)) : undefined;
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'application/xml' }).end(NO_SUCH_KEY);
        return;
      }
      sendJson(res, 200, body);
      return;
    }
    if (r.path === '/LATEST/search-index') {
      efts(r.params, res);
      return;
    }
    if (r.path === '/cgi-bin/browse-edgar' && r.params.action === 'getcurrent') {
      res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(atom());
      return;
    }
    const doc = docs.get(r.path);
    if (doc !== undefined) {
      res.writeHead(200, { 'content-type': doc.type }).end(doc.body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><h1>Not Found</h1></html>');
  });
}

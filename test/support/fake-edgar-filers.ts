// The filers of the SEC EDGAR fixture (fake-edgar.ts) and what data.sec.gov says of them: the
// ticker list, Apple's insiders and their Form 4s, and each CIK's submissions (columnar
// `filings.recent`, older 10-Ks on an older page; an owner's own filings).
export const TICKERS = [
  { cik_str: 320193, ticker: 'AAPL', title: 'Apple Inc.' },
  { cik_str: 789019, ticker: 'MSFT', title: 'MICROSOFT CORP' },
  { cik_str: 1318605, ticker: 'TSLA', title: 'Tesla, Inc.' },
  { cik_str: 1067983, ticker: 'BRK-B', title: 'BERKSHIRE HATHAWAY INC' },
  { cik_str: 1067983, ticker: 'BRK-A', title: 'BERKSHIRE HATHAWAY INC' },
  { cik_str: 1418121, ticker: 'APLE', title: 'Apple Hospitality REIT, Inc.' },
  { cik_str: 78003, ticker: 'PFE', title: 'Pfizer Inc.' },
];

/** A date `months` whole months before now, on `day` (UTC), as YYYY-MM-DD. */
export function monthsAgo(months: number, day: number, now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, day));
  return d.toISOString().slice(0, 10);
}

export interface FixtureTx {
  code: string;
  shares: number;
  price: number;
  ad: 'A' | 'D';
  after: number;
  derivative?: boolean;
}

export interface FixtureForm4 {
  accession: string;
  ownerCik: number;
  monthsAgo: number;
  day: number;
  txs: FixtureTx[];
}

export const INSIDERS: Record<
  number,
  { name: string; director: boolean; officer: string | null; tenPercent?: boolean }
> = {
  1214156: { name: 'Cook Timothy D', director: true, officer: 'Chief Executive Officer' },
  1513362: { name: 'Maestri Luca', director: false, officer: 'Senior Vice President, CFO' },
  1214128: { name: 'Levinson Arthur D', director: true, officer: null },
  1496686: { name: 'Williams Jeffrey E', director: false, officer: 'Chief Operating Officer' },
};

const acc = (n: number) => `0000320193-26-${String(n).padStart(6, '0')}`;

/** Apple's Form 4s, newest first. Buys (P) and sells (S) feed the sentiment; A, M, F, G do not. */
export const FORM4S: FixtureForm4[] = [
  {
    accession: acc(120),
    ownerCik: 1214156,
    monthsAgo: 1,
    day: 3,
    txs: [{ code: 'S', shares: 1000, price: 230, ad: 'D', after: 3_280_000 }],
  },
  {
    accession: acc(119),
    ownerCik: 1214128,
    monthsAgo: 1,
    day: 10,
    txs: [{ code: 'P', shares: 500, price: 220, ad: 'A', after: 4_200_500 }],
  },
  {
    accession: acc(118),
    ownerCik: 1513362,
    monthsAgo: 2,
    day: 5,
    txs: [
      { code: 'M', shares: 2000, price: 0, ad: 'A', after: 112_000, derivative: true },
      { code: 'F', shares: 800, price: 210, ad: 'D', after: 111_200 },
      { code: 'S', shares: 1200, price: 212.5, ad: 'D', after: 110_000 },
    ],
  },
  {
    accession: acc(117),
    ownerCik: 1496686,
    monthsAgo: 2,
    day: 20,
    txs: [{ code: 'G', shares: 300, price: 0, ad: 'D', after: 489_700 }],
  },
  {
    accession: acc(116),
    ownerCik: 1214128,
    monthsAgo: 3,
    day: 7,
    txs: [{ code: 'P', shares: 1000, price: 200, ad: 'A', after: 4_200_000 }],
  },
  {
    accession: acc(115),
    ownerCik: 1496686,
    monthsAgo: 3,
    day: 12,
    txs: [{ code: 'P', shares: 100, price: 199, ad: 'A', after: 490_000 }],
  },
  {
    accession: acc(114),
    ownerCik: 1214156,
    monthsAgo: 4,
    day: 2,
    txs: [{ code: 'A', shares: 50_000, price: 0, ad: 'A', after: 3_281_000 }],
  },
];

const OLD_10K = [
  ['0000320193-23-000106', '2023-11-03', '2023-09-30', 'aapl-20230930.htm'],
  ['0000320193-22-000108', '2022-10-28', '2022-09-24', 'aapl-20220924.htm'],
  ['0000320193-21-000105', '2021-10-29', '2021-09-25', 'aapl-20210925.htm'],
];

interface Row {
  accessionNumber: string;
  filingDate: string;
  reportDate: string;
  acceptanceDateTime: string;
  form: string;
  items: string;
  primaryDocument: string;
  primaryDocDescription: string;
  isXBRL: number;
}

function row(
  accession: string,
  form: string,
  filed: string,
  doc: string,
  o: Partial<Row> = {}
): Row {
  return {
    accessionNumber: accession,
    filingDate: filed,
    reportDate: o.reportDate ?? '',
    acceptanceDateTime: `${filed}T16:30:12.000Z`,
    form,
    items: o.items ?? '',
    primaryDocument: doc,
    primaryDocDescription: o.primaryDocDescription ?? form,
    isXBRL: o.isXBRL ?? 0,
  };
}

const form4Row = (f: FixtureForm4) =>
  row(
    f.accession,
    '4',
    monthsAgo(f.monthsAgo, f.day + 1),
    `xslF345X05/wf-form4_${f.accession.slice(-6)}.xml`
  );

function appleRows(): Row[] {
  const rows: Row[] = [
    ...FORM4S.slice(0, 2).map(form4Row),
    row('0000320193-26-000090', '8-K', monthsAgo(1, 20), 'aapl-20261030.htm', {
      items: '2.02,9.01',
      reportDate: monthsAgo(1, 20),
      primaryDocDescription: '8-K',
    }),
    ...FORM4S.slice(2).map(form4Row),
    row('0000320193-26-000011', 'DEF 14A', '2026-01-10', 'aapl4359751-def14a.htm', {
      primaryDocDescription: 'DEF 14A',
    }),
    row('0000320193-25-000079', '10-K', '2025-10-31', 'aapl-20250927.htm', {
      reportDate: '2025-09-27',
      isXBRL: 1,
      primaryDocDescription: '10-K',
    }),
    row('0000320193-25-000073', '10-Q', '2025-08-01', 'aapl-20250628.htm', {
      reportDate: '2025-06-28',
      isXBRL: 1,
      primaryDocDescription: '10-Q',
    }),
    row('0000320193-24-000123', '10-K', '2024-11-01', 'aapl-20240928.htm', {
      reportDate: '2024-09-28',
      isXBRL: 1,
      primaryDocDescription: '10-K',
    }),
  ];
  return rows;
}

function columns(rows: Row[]): Record<string, unknown[]> {
  const keys = Object.keys(rows[0] ?? row('', '', '', '')) as Array<keyof Row>;
  return Object.fromEntries(keys.map((k) => [k, rows.map((r) => r[k])]));
}

const ADDRESS = {
  street1: 'ONE APPLE PARK WAY',
  street2: null,
  city: 'CUPERTINO',
  stateOrCountry: 'CA',
  zipCode: '95014',
  stateOrCountryDescription: 'CA',
};

export function companySubmissions(cik: number): Record<string, unknown> | undefined {
  const base = (
    name: string,
    tickers: string[],
    sic: string,
    sicDescription: string,
    state: string
  ) => ({
    cik: String(cik),
    entityType: 'operating',
    sic,
    sicDescription,
    ownerOrg: '06 Technology',
    insiderTransactionForOwnerExists: 0,
    insiderTransactionForIssuerExists: 1,
    name,
    tickers,
    exchanges: tickers.map(() => 'Nasdaq'),
    ein: '942404110',
    lei: null,
    description: '',
    website: '',
    investorWebsite: '',
    category: 'Large accelerated filer',
    fiscalYearEnd: '0927',
    stateOfIncorporation: state,
    stateOfIncorporationDescription: state,
    addresses: { mailing: ADDRESS, business: ADDRESS },
    phone: '(408) 996-1010',
    flags: '',
    formerNames: [] as unknown[],
  });
  if (cik === 320193) {
    return {
      ...base('Apple Inc.', ['AAPL'], '3571', 'Electronic Computers', 'CA'),
      formerNames: [
        {
          name: 'APPLE COMPUTER INC',
          from: '1994-01-26T00:00:00.000Z',
          to: '2007-01-04T00:00:00.000Z',
        },
      ],
      filings: {
        recent: columns(appleRows()),
        files: [
          {
            name: 'CIK0000320193-submissions-001.json',
            filingCount: 3,
            filingFrom: '1994-01-26',
            filingTo: '2023-11-03',
          },
        ],
      },
    };
  }
  if (cik === 1318605) {
    return {
      ...base('Tesla, Inc.', ['TSLA'], '3711', 'Motor Vehicles & Passenger Car Bodies', 'TX'),
      filings: {
        recent: columns([
          row('0001628280-26-000200', '8-K', '2026-10-22', 'tsla-20261022.htm', { items: '2.02' }),
          row('0001628280-26-000100', '10-Q', '2026-10-23', 'tsla-20260930.htm', {
            reportDate: '2026-09-30',
          }),
        ]),
        files: [],
      },
    };
  }
  if (cik === 789019) {
    return {
      ...base('MICROSOFT CORP', ['MSFT'], '7372', 'Services-Prepackaged Software', 'WA'),
      filings: {
        recent: columns([
          row('0000950170-26-000010', '10-K', '2026-07-30', 'msft-10k_20260630.htm'),
        ]),
        files: [],
      },
    };
  }
  if (cik === 78003) {
    return {
      ...base('PFIZER INC', ['PFE'], '2834', 'Pharmaceutical Preparations', 'DE'),
      filings: {
        recent: columns([row('0000078003-26-000010', '10-K', '2026-02-26', 'pfe-20251231.htm')]),
        files: [],
      },
    };
  }
  if (cik === 1418121) {
    return {
      ...base(
        'Apple Hospitality REIT, Inc.',
        ['APLE'],
        '6798',
        'Real Estate Investment Trusts',
        'VA'
      ),
      filings: {
        recent: columns([row('0001418121-26-000005', '10-K', '2026-02-25', 'aple-20251231.htm')]),
        files: [],
      },
    };
  }
  return undefined;
}

export function ownerSubmissions(cik: number): Record<string, unknown> | undefined {
  const who = INSIDERS[cik];
  if (who === undefined) return undefined;
  const mine = FORM4S.filter((f) => f.ownerCik === cik);
  return {
    cik: String(cik),
    entityType: 'other',
    sic: '',
    sicDescription: '',
    insiderTransactionForOwnerExists: 1,
    insiderTransactionForIssuerExists: 0,
    name: who.name,
    tickers: [],
    exchanges: [],
    ein: null,
    fiscalYearEnd: null,
    stateOfIncorporation: '',
    addresses: { mailing: ADDRESS, business: ADDRESS },
    formerNames: [],
    filings: { recent: columns(mine.map(form4Row)), files: [] },
  };
}

/** Apple's older page of submissions (`files[]` names it): the 10-Ks of earlier years. */
export function appleOlderFilings(): Record<string, unknown[]> {
  return columns(
    OLD_10K.map(([a, filed, period, doc]) => row(a!, '10-K', filed!, doc!, { reportDate: period! }))
  );
}

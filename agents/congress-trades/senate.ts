// The Senate's eFD search (data-sources.md "congress-trades"): a Django site that serves nothing
// before its prohibition agreement is accepted: GET /search/home/ for the CSRF cookie and form
// token, POST the agreement, then POST /search/report/data/ (DataTables start/length, report_types
// [11] = PTR) and GET /search/view/ptr/{id}/ for a report's HTML table. An expired session shows
// as a redirect to /search/home/: the agreement is made again once.
import { parseHTML } from 'linkedom';
import { UnavailableError } from '../../runtime/errors/index.js';
import { fail } from '../kit/index.js';
import type {
  Provenance,
  RawAnswer,
  RawRequest,
  Remembered,
  Upstream,
} from '../kit/public-data/index.js';
import { isoDate } from './house-ptr.js';
import { DOCUMENT_TTL_MS } from './house.js';
import type { Filing, ReportRead, Row } from './model.js';

export const SENATE = 'Senate eFD (efdsearch.senate.gov)';
/** Rows asked per DataTables page. */
export const PAGE_LENGTH = 100;

export interface SenateQuery {
  /** YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
  lastName?: string;
}

/** MM/DD/YYYY, as the search form takes dates. */
function usDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${m}/${d}/${y}`;
}

export class SenateClient {
  private readonly cookies = new Map<string, string>();
  private agreed = false;
  /** One agreement at a time: reports read in parallel wait for the same one. */
  private agreeing: Promise<void> | undefined;
  /** The agreement's requests, owed to the provenance of the answer that needed them. */
  private agreement: Provenance[] = [];

  constructor(
    private readonly up: Upstream,
    private readonly base: string
  ) {}

  /** PTR filings submitted in the window, newest first, over at most `maxPages` pages. */
  async filings(q: SenateQuery, maxPages: number): Promise<Remembered<Filing[]>> {
    const form: Record<string, string> = {
      report_types: '[11]',
      filer_types: '[]',
      submitted_start_date: `${usDate(q.from)} 00:00:00`,
      submitted_end_date: `${usDate(q.to)} 23:59:59`,
      candidate_state: '',
      senator_state: '',
      office_id: '',
      first_name: '',
      last_name: q.lastName ?? '',
      'order[0][column]': '4',
      'order[0][dir]': 'desc',
    };
    return this.up.remember(`senate-search-${JSON.stringify(form)}-${maxPages}`, async () => {
      const filings: Filing[] = [];
      const provenance: Provenance[] = [];
      for (let page = 0; page < maxPages; page++) {
        const a = await this.session({
          method: 'POST',
          path: '/search/report/data/',
          accept: 'application/json',
          form: {
            draw: String(page + 1),
            start: String(page * PAGE_LENGTH),
            length: String(PAGE_LENGTH),
            ...form,
          },
          referer: '/search/',
        });
        provenance.push(a.provenance);
        if (a.status !== 200) fail(`${SENATE} answered HTTP ${a.status} to the report search`);
        const body = parseJson(a.bytes);
        for (const r of body.data) {
          const f = this.filing(r);
          if (f !== undefined) filings.push(f);
        }
        if ((page + 1) * PAGE_LENGTH >= body.recordsFiltered || body.data.length === 0) break;
      }
      filings.sort((x, y) => y.filed.localeCompare(x.filed));
      return { value: filings, provenance: [...this.owed(), ...provenance] };
    });
  }

  /** One report's rows: the PTR table, or "paper" for a filing that is images of pages. */
  async read(f: Filing): Promise<Remembered<ReportRead>> {
    if (f.paper) return { value: { status: 'paper', rows: [] }, provenance: [] };
    return this.up.remember<ReportRead>(
      `senate-ptr-${f.id}`,
      async () => {
        const a = await this.session({
          path: `/search/view/ptr/${f.id}/`,
          accept: 'text/html',
          referer: '/search/',
        });
        const provenance = [...this.owed(), a.provenance];
        if (a.status === 404) return { value: { status: 'missing', rows: [] }, provenance };
        if (a.status !== 200) fail(`${SENATE} answered HTTP ${a.status} for report ${f.id}`);
        const rows = ptrTable(a.bytes.toString('utf8'));
        return {
          value: { status: rows === undefined ? 'unrecognised' : 'parsed', rows: rows ?? [] },
          provenance,
        };
      },
      DOCUMENT_TTL_MS
    );
  }

  /** A request inside an agreed session: agree first, and again once if the session expired. */
  private async session(
    r: Omit<RawRequest, 'headers' | 'redirect'> & { referer: string }
  ): Promise<RawAnswer> {
    for (let attempt = 0; ; attempt++) {
      if (!this.agreed) {
        this.agreeing ??= this.agree().finally(() => (this.agreeing = undefined));
        await this.agreeing;
      }
      const token = this.cookies.get('csrftoken') ?? '';
      const a = await this.up.request({
        ...r,
        ...(r.form ? { form: { ...r.form, csrfmiddlewaretoken: token } } : {}),
        hiddenForm: ['csrfmiddlewaretoken'],
        headers: {
          cookie: this.cookieHeader(),
          referer: `${this.base}${r.referer}`,
          ...(r.method === 'POST' ? { 'x-csrftoken': token } : {}),
        },
        redirect: 'manual',
      });
      this.keep(a);
      if (!toHome(a)) return a;
      this.agreed = false;
      if (attempt > 0) {
        fail(`${SENATE} sent the hub back to its agreement page twice; try again later`);
      }
    }
  }

  /** The prohibition agreement: the form's CSRF token from the home page, posted back. */
  private async agree(): Promise<void> {
    const home = await this.up.request({
      path: '/search/home/',
      accept: 'text/html',
      headers: { cookie: this.cookieHeader() },
      redirect: 'manual',
    });
    this.keep(home);
    this.agreement.push(home.provenance);
    if (home.status !== 200) fail(`${SENATE} answered HTTP ${home.status} for its agreement page`);
    const token = /name=["']csrfmiddlewaretoken["']\s+value=["']([^"']+)["']/.exec(
      home.bytes.toString('utf8')
    )?.[1];
    if (token === undefined || !this.cookies.has('csrftoken')) {
      throw new UnavailableError(
        `${SENATE}: the agreement page has no CSRF token; the site may have changed`
      );
    }
    const post = await this.up.request({
      method: 'POST',
      path: '/search/home/',
      accept: 'text/html',
      form: { prohibition_agreement: '1', csrfmiddlewaretoken: token },
      hiddenForm: ['csrfmiddlewaretoken'],
      headers: { cookie: this.cookieHeader(), referer: `${this.base}/search/home/` },
      redirect: 'manual',
    });
    this.keep(post);
    this.agreement.push(post.provenance);
    if (post.status >= 400 || toHome(post) || post.status === 200) {
      fail(`${SENATE} did not accept the agreement step (HTTP ${post.status}); try again later`);
    }
    this.agreed = true;
  }

  private owed(): Provenance[] {
    const p = this.agreement;
    this.agreement = [];
    return p;
  }

  private keep(a: RawAnswer): void {
    for (const c of a.headers.getSetCookie()) {
      const pair = c.split(';')[0] ?? '';
      const i = pair.indexOf('=');
      if (i > 0) this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private filing(r: unknown[]): Filing | undefined {
    const [first, last, , link, date] = r.map((c) => (typeof c === 'string' ? c : ''));
    const m = /href=["']?\/search\/view\/(ptr|paper)\/([\w-]+)\/?/.exec(link ?? '');
    if (!m) return undefined;
    const name = `${first ?? ''} ${last ?? ''}`.replace(/\s+/g, ' ').trim();
    return {
      chamber: 'senate',
      member: name,
      first: (first ?? '').trim(),
      last: (last ?? '').trim(),
      state: null,
      filed: isoDate(date ?? '') ?? '',
      id: m[2]!,
      url: `${this.base}/search/view/${m[1]}/${m[2]}/`,
      paper: m[1] === 'paper',
    };
  }
}

function toHome(a: RawAnswer): boolean {
  return (
    a.status >= 300 && a.status < 400 && /\/search\/home/.test(a.headers.get('location') ?? '')
  );
}

function parseJson(bytes: Buffer): { recordsFiltered: number; data: unknown[][] } {
  try {
    const b = JSON.parse(bytes.toString('utf8')) as {
      recordsFiltered?: unknown;
      recordsTotal?: unknown;
      data?: unknown;
    };
    if (!Array.isArray(b.data)) throw new Error('no data');
    const total = Number(b.recordsFiltered ?? b.recordsTotal ?? 0);
    return { recordsFiltered: total, data: b.data.filter(Array.isArray) as unknown[][] };
  } catch (err) {
    throw new UnavailableError(`${SENATE} did not answer the report search with its JSON`, err);
  }
}

/** The little of linkedom's DOM read here: the project builds without the DOM library types. */
interface Node {
  textContent: string | null;
  querySelector(selector: string): Node | null;
  querySelectorAll(selector: string): Iterable<Node>;
}

const TYPES: Record<string, string> = {
  purchase: 'purchase',
  'sale (full)': 'sale',
  sale: 'sale',
  'sale (partial)': 'partial sale',
  exchange: 'exchange',
};
const OWNERS: Record<string, string> = {
  child: 'dependent child',
  'dependent child': 'dependent child',
};

/** The rows of an e-filed PTR page's table; undefined when the page has no such table. */
export function ptrTable(html: string): Row[] | undefined {
  const { document } = parseHTML(html) as unknown as { document: Node };
  const table = [...document.querySelectorAll('table')].find((t) =>
    /transaction\s+date/i.test(t.querySelector('thead')?.textContent ?? '')
  );
  if (table === undefined) return undefined;
  const text = (el: Node | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const none = (s: string) => (s === '' || s === '--' ? null : s);
  return [...table.querySelectorAll('tbody tr')].flatMap((tr): Row[] => {
    const c = [...tr.querySelectorAll('td')];
    if (c.length < 8) return [];
    const owner = text(c[2]).toLowerCase();
    const type = text(c[6]).toLowerCase();
    return [
      {
        owner: OWNERS[owner] ?? owner,
        asset: text(c[4]),
        ticker: none(text(c[3])),
        assetType: none(text(c[5])),
        type: TYPES[type] ?? type,
        date: isoDate(text(c[1])),
        notified: null,
        amount: text(c[7]),
        comment: none(text(c[8])),
      },
    ];
  });
}

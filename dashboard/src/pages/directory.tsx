// Directory: the public directory as anyone sees it (GET /api/discover/agents without a key), with
// the API's filters, paging, and an agent's detail (card skills, stats, reviews).
import { useState } from 'preact/hooks';
import { publicGet } from '../api';
import { Busy, ErrorNotice } from '../parts/notice';
import { useLoad } from '../parts/use-load';

interface DirAgent {
  id: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  rating?: number;
  ratingCount?: number;
  tenantName?: string;
  verified?: boolean;
}
interface Detail {
  agent: DirAgent & {
    agentCard?: { skills?: Array<{ id: string; name: string; description?: string }> };
    stats?: { totalMessages: number; successRate: number | null; avgResponseTime: number | null };
  };
  reviews: Array<{ rating: number; review: string; createdAt?: string }>;
}

const PAGE = 20;

export function DirectoryPage() {
  const [form, setForm] = useState({
    q: '',
    category: '',
    tag: '',
    owner: '',
    country: '',
    verified: '',
    pricing: '',
    sort: '',
  });
  const [applied, setApplied] = useState(form);
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string>();
  const categories = useLoad(
    () =>
      publicGet<{ categories: Array<{ name: string; count: number }> }>('/api/discover/categories'),
    []
  );
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  for (const [k, v] of Object.entries(applied)) if (v.trim()) params.set(k, v.trim());
  const list = useLoad(
    () =>
      publicGet<{ agents: DirAgent[]; count: number }>(`/api/discover/agents?${params.toString()}`),
    [params.toString()]
  );
  const field = (name: keyof typeof form, label: string) => (
    <label>
      {label}
      <input
        name={name}
        value={form[name]}
        onInput={(e) => setForm({ ...form, [name]: e.currentTarget.value })}
      />
    </label>
  );
  return (
    <section aria-labelledby="dir-h">
      <h1 id="dir-h">Directory</h1>
      <form
        class="filters"
        aria-label="Search the directory"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setApplied(form);
        }}
      >
        {field('q', 'Search')}
        <label>
          Category
          <select
            name="category"
            value={form.category}
            onChange={(e) => setForm({ ...form, category: e.currentTarget.value })}
          >
            <option value="">any</option>
            {categories.data?.categories.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({c.count})
              </option>
            ))}
          </select>
        </label>
        {field('tag', 'Tag')}
        {field('owner', 'Owner')}
        {field('country', 'Country (ISO code)')}
        <label>
          Verified
          <select
            value={form.verified}
            onChange={(e) => setForm({ ...form, verified: e.currentTarget.value })}
          >
            <option value="">either</option>
            <option value="true">verified owners only</option>
          </select>
        </label>
        <label>
          Pricing
          <select
            value={form.pricing}
            onChange={(e) => setForm({ ...form, pricing: e.currentTarget.value })}
          >
            <option value="">all</option>
            <option value="free">free</option>
            <option value="paid">paid</option>
          </select>
        </label>
        <label>
          Sort
          <select
            value={form.sort}
            onChange={(e) => setForm({ ...form, sort: e.currentTarget.value })}
          >
            <option value="">default</option>
            <option value="relevance">relevance (needs a search)</option>
            <option value="rating">rating</option>
            <option value="popular">popular</option>
            <option value="recent">recent</option>
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorNotice error={list.error ?? categories.error} />
      <Busy when={list.loading} label="Searching…" />
      <ul class="directory">
        {list.data?.agents.map((a) => (
          <li key={a.id} data-directory-agent={a.id}>
            <button
              type="button"
              class="link"
              aria-expanded={open === a.id}
              onClick={() => setOpen(open === a.id ? undefined : a.id)}
            >
              <strong>{a.name}</strong>
            </button>{' '}
            <span class="sub">
              {a.category ?? ''} {a.tenantName ? `by ${a.tenantName}` : ''}{' '}
              {a.verified ? '✓ verified' : ''}
            </span>
            <p>{a.description}</p>
            <p class="sub">{a.tags.join(' · ')}</p>
            {open === a.id ? <AgentDetail id={a.id} /> : null}
          </li>
        ))}
      </ul>
      {list.data?.agents.length === 0 ? <p>No agent matches.</p> : null}
      <div class="row">
        <button
          type="button"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - PAGE))}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={(list.data?.agents.length ?? 0) < PAGE}
          onClick={() => setOffset(offset + PAGE)}
        >
          Next
        </button>
      </div>
    </section>
  );
}

function AgentDetail({ id }: { id: string }) {
  const d = useLoad(
    () => publicGet<Detail>(`/api/discover/agents/${encodeURIComponent(id)}`),
    [id]
  );
  const a = d.data?.agent;
  return (
    <div class="panel">
      <ErrorNotice error={d.error} />
      {a ? (
        <>
          {a.stats ? (
            <p>
              {a.stats.totalMessages} messages received; success rate{' '}
              {a.stats.successRate === null ? '–' : `${Math.round(a.stats.successRate * 100)}%`}
            </p>
          ) : null}
          {a.agentCard?.skills?.length ? (
            <ul>
              {a.agentCard.skills.map((s) => (
                <li key={s.id}>
                  <strong>{s.name}</strong> {s.description ?? ''}
                </li>
              ))}
            </ul>
          ) : null}
          {d.data?.reviews.map((r, i) => (
            <blockquote key={i}>
              {'★'.repeat(r.rating)} {r.review}
            </blockquote>
          ))}
        </>
      ) : null}
    </div>
  );
}

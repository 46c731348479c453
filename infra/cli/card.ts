// Fetching an HTTP agent's card at registration: GET <url>/.well-known/agent.json (interface-spec
// "Endpoints an HTTP (webhook) agent exposes"), then at the URL's origin, then agent-card.json at
// both (decisions.md §11: an agent registered by its `/a2a` URL serves its card at the origin).
// Failures name the URL so the operator can fix it.
import { HubError } from '../../runtime/errors/index.js';
import { AgentCardInput } from '../../runtime/protocol/index.js';

export interface FetchCardOptions {
  timeoutMs: number;
  /** Larger answers are refused: a card is a small JSON document. */
  maxBytes?: number;
  fetch?: typeof fetch;
}

const DEFAULT_MAX_BYTES = 256 * 1024;

/** `<url>/.well-known/<file>`, keeping the URL's path (an agent may live under a prefix). */
export function agentCardUrl(url: string, file = 'agent.json'): string {
  const u = new URL(url);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/.well-known/${file}`;
  u.search = '';
  u.hash = '';
  return u.href;
}

/** Where the card is looked for, in order, without repeats (the URL may be its own origin). */
export function agentCardUrls(url: string): string[] {
  const origin = new URL(url).origin;
  const all = ['agent.json', 'agent-card.json'].flatMap((file) => [
    agentCardUrl(url, file),
    agentCardUrl(origin, file),
  ]);
  return [...new Set(all)];
}

/**
 * The first card found at agentCardUrls(url), as a JSON object. An address that answers with an
 * HTTP error passes to the next; a network failure, or a card found but unreadable or invalid,
 * throws UNPROCESSABLE naming the card URL and the reason.
 */
export async function fetchAgentCard(url: string, opts: FetchCardOptions): Promise<object> {
  const urls = agentCardUrls(url);
  const statuses: string[] = [];
  for (const cardUrl of urls) {
    const card = await fetchCardAt(cardUrl, opts);
    if (typeof card === 'object') return card;
    statuses.push(`HTTP ${card} at ${cardUrl}`);
  }
  throw new HubError(
    'UNPROCESSABLE',
    `could not fetch the agent card from ${urls[0]}: ${statuses.join(', ')} ` +
      '(check --url, or pass --skip-card to register without a card)',
    { data: { field: 'url', url: urls[0], tried: urls } }
  );
}

/** The card at `cardUrl`, or the HTTP status of an answer that is not a success. */
async function fetchCardAt(cardUrl: string, opts: FetchCardOptions): Promise<object | number> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const fail = (reason: string, cause?: unknown): HubError =>
    new HubError(
      'UNPROCESSABLE',
      `could not fetch the agent card from ${cardUrl}: ${reason} ` +
        '(check --url, or pass --skip-card to register without a card)',
      { data: { field: 'url', url: cardUrl }, cause }
    );

  let text: string;
  try {
    const res = await (opts.fetch ?? fetch)(cardUrl, {
      headers: { accept: 'application/json' },
      redirect: 'follow',
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    if (!res.ok) return res.status;
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > maxBytes) throw fail(`larger than ${maxBytes} bytes`);
    text = await res.text();
  } catch (err) {
    if (err instanceof HubError) throw err;
    throw fail(networkReason(err, opts.timeoutMs), err);
  }
  if (Buffer.byteLength(text) > maxBytes) throw fail(`larger than ${maxBytes} bytes`);
  let card: unknown;
  try {
    card = JSON.parse(text);
  } catch (err) {
    throw fail('the answer is not JSON', err);
  }
  if (typeof card !== 'object' || card === null || Array.isArray(card)) {
    throw fail('the answer is not a JSON object');
  }
  // The card is stored as the agent sent it; it must still carry the fields the spec requires.
  const checked = AgentCardInput.safeParse(card);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const field = issue.path.join('.') || '(card)';
    throw new HubError(
      'UNPROCESSABLE',
      `the agent card at ${cardUrl} is not valid: ${field} ${issue.message}`,
      { data: { field: `card.${field}`, url: cardUrl } }
    );
  }
  return card;
}

function networkReason(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  // undici reports "fetch failed" with the socket error (ECONNREFUSED, ENOTFOUND…) as the cause.
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown }) : null;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

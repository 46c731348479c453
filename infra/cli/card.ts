// Fetching an HTTP agent's card at registration: GET <url>/.well-known/agent.json (interface-spec
// "Endpoints an HTTP (webhook) agent exposes"). Failures name the URL so the operator can fix it.
import { HubError } from '../../runtime/errors/index.js';
import { AgentCardInput } from '../../runtime/protocol/index.js';

export interface FetchCardOptions {
  timeoutMs: number;
  /** Larger answers are refused: a card is a small JSON document. */
  maxBytes?: number;
  fetch?: typeof fetch;
}

const DEFAULT_MAX_BYTES = 256 * 1024;

/** `<url>/.well-known/agent.json`, keeping the URL's path (an agent may live under a prefix). */
export function agentCardUrl(url: string): string {
  const u = new URL(url);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/.well-known/agent.json`;
  u.search = '';
  u.hash = '';
  return u.href;
}

/** The card as a JSON object; throws UNPROCESSABLE naming the card URL and the reason. */
export async function fetchAgentCard(url: string, opts: FetchCardOptions): Promise<object> {
  const cardUrl = agentCardUrl(url);
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
    if (!res.ok) throw fail(`HTTP ${res.status}`);
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

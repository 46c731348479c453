// Every call the dashboard makes: the hub's public HTTP API on this origin, with the signed-in key
// as a Bearer header (or the operator token for /debug). Errors become sentences a person can act on.
import { loadSession } from './session';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly field?: string
  ) {
    super(message);
  }
}

/** key: the tenant admin key; operator: ADMIN_TOKEN; none: as anyone on the internet. */
type Credential = 'key' | 'operator' | 'none';

/** Listeners told when the hub refuses the signed-in key (401), so the app can sign out. */
const refused = new Set<() => void>();
export function onKeyRefused(f: () => void): () => void {
  refused.add(f);
  return () => refused.delete(f);
}

function authHeader(cred: Credential): Record<string, string> {
  if (cred === 'none') return {};
  const s = loadSession();
  const secret = cred === 'key' ? s?.key : s?.adminToken;
  return secret ? { authorization: `Bearer ${secret}` } : {};
}

async function failure(res: Response, cred: Credential): Promise<ApiError> {
  let code = `HTTP_${res.status}`;
  let message = res.statusText || `The hub answered ${res.status}`;
  let field: string | undefined;
  try {
    const body = (await res.json()) as {
      error?: { code?: string; message?: string; details?: { field?: string } };
    };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
    field = body.error?.details?.field;
  } catch {
    // Not JSON (a proxy's page): the status line says enough.
  }
  if (res.status === 401 && cred === 'key') {
    refused.forEach((f) => f());
    message = 'The hub refused the admin key: it is wrong, revoked or was rotated. Sign in again.';
  } else if (res.status === 401) {
    message = 'The hub refused the operator token (ADMIN_TOKEN).';
  } else if (res.status === 403 && cred === 'key') {
    message = 'This key may not do that: the dashboard needs a tenant admin key, not an agent key.';
  } else if (res.status === 404 && cred === 'operator' && code === 'HTTP_404') {
    message = 'This hub has no operator routes: it runs without ADMIN_TOKEN.';
  } else if (res.status === 429) {
    message = `Too many requests with this key; try again in ${res.headers.get('retry-after') ?? 'a'} s.`;
  }
  if (field) message = `${message} (field "${field}")`;
  return new ApiError(message, res.status, code, field);
}

export async function call<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  cred: Credential = 'key'
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: {
        ...authHeader(cred),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(
      'The hub did not answer: check that it is running and reachable.',
      0,
      'NETWORK'
    );
  }
  if (!res.ok) throw await failure(res, cred);
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

export const get = <T>(path: string) => call<T>('GET', path);
export const operatorGet = <T>(path: string) => call<T>('GET', path, undefined, 'operator');
export const publicGet = <T>(path: string) => call<T>('GET', path, undefined, 'none');

/**
 * Read a Server-Sent Events response with fetch (EventSource cannot send an Authorization header,
 * and the key must not go in the URL). Calls `onData` with each event's data until `signal` aborts.
 */
export async function streamEvents(
  path: string,
  onData: (data: string) => void,
  signal: AbortSignal
): Promise<void> {
  const res = await fetch(path, { headers: authHeader('key'), signal });
  if (!res.ok || res.body === null) throw await failure(res, 'key');
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (data) onData(data);
    }
  }
}

export function describe(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

// Management commands against a running hub's API instead of the database (issue 25):
// `burrow --url <hub> --key <admin key> agents list` calls GET /api/agents with that key, so an
// operator or a script needs neither database nor NATS access, and the hub applies the same rules
// and errors as for any client. The key decides the tenant; `--tenant` is refused alongside it.
import { errorFromRest } from '../../sdk/index.js';
import {
  InvalidParamsError,
  UnauthenticatedError,
  UnavailableError,
} from '../../runtime/errors/index.js';

export type RemoteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RemoteHub {
  readonly url: string;
  /** One REST call with the bearer key; the parsed JSON answer, or the hub's error as thrown. */
  call<T = unknown>(
    method: RemoteMethod,
    path: string,
    body?: unknown,
    query?: Record<string, string | number | undefined>
  ): Promise<T>;
}

export interface RemoteOptions {
  url: string;
  key: string | undefined;
  fetch?: typeof globalThis.fetch | undefined;
  /** The public directory answers without a key; everything else needs one. */
  keyOptional?: boolean;
}

export function remoteHub(o: RemoteOptions): RemoteHub {
  if (!/^https?:\/\//.test(o.url)) {
    throw new InvalidParamsError('--url', `must be the hub's http(s) base URL, got ${o.url}`);
  }
  const keyless = o.key === undefined || o.key === '';
  if (keyless && !o.keyOptional) {
    throw new UnauthenticatedError('this needs an API key: burrow --key <key>, or BURROW_API_KEY');
  }
  const base = o.url.replace(/\/+$/, '');
  const doFetch = o.fetch ?? globalThis.fetch.bind(globalThis);
  const headers: Record<string, string> = keyless
    ? { accept: 'application/json' }
    : { authorization: `Bearer ${o.key}`, accept: 'application/json' };
  return {
    url: base,
    async call<T>(
      method: RemoteMethod,
      path: string,
      body?: unknown,
      query?: Record<string, string | number | undefined>
    ): Promise<T> {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) q.set(k, String(v));
      const target = `${base}${path}${q.size > 0 ? `?${q.toString()}` : ''}`;
      const res = await doFetch(target, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).catch((err: unknown) => {
        const reason =
          err instanceof Error
            ? ((err.cause as Error | undefined)?.message ?? err.message)
            : String(err);
        throw new UnavailableError(`cannot reach the hub at ${base}: ${reason}`, err);
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = text;
      }
      if (!res.ok) throw errorFromRest(json, res.status);
      return json as T;
    },
  };
}

/** `--tenant` names a tenant for the database; over the API the key already says which. */
export function refuseTenantWithRemote(tenant: string | undefined): void {
  if (tenant !== undefined) {
    throw new InvalidParamsError(
      '--tenant',
      'not used with --url: the admin key says which tenant'
    );
  }
}

/** Without --url the database commands need `--tenant`. */
export function tenantRequired(tenant: string | undefined): string {
  if (tenant === undefined || tenant === '') {
    throw new InvalidParamsError('--tenant', 'is required (or --url and an admin --key)');
  }
  return tenant;
}

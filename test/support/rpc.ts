// Plain fetch JSON-RPC calls for the hub dialect, as existing hub clients make them.
let seq = 0;

export interface RpcResult<T = Record<string, unknown>> {
  status: number;
  result?: T;
  error?: { code: number; message: string; data?: unknown };
  id: unknown;
}

export async function rpc<T = Record<string, unknown>>(
  url: string,
  apiKey: string | undefined,
  method: string,
  params: unknown,
  path = '/a2a'
): Promise<RpcResult<T>> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'a2a-version': '1.0',
  };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const id = ++seq;
  const res = await fetch(url + path, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const body = (await res.json()) as Omit<RpcResult<T>, 'status'>;
  return { status: res.status, ...body };
}

export const text = (t: string) => ({ role: 'user', parts: [{ kind: 'text', text: t }] });

// An upstream client's options from the hub's configuration (runtime/config: PUBLIC_DATA_* and the
// agent's own <AGENT>_URL, _API_KEY, _REQUESTS_PER_MINUTE).
import type { UpstreamSettings } from '../../../runtime/config/index.js';
import type { AgentContext } from '../types.js';
import type { UpstreamOptions } from './upstream.js';

export function upstreamOptions(
  ctx: AgentContext,
  u: UpstreamSettings,
  o: Pick<UpstreamOptions, 'source' | 'bucket' | 'urlSetting' | 'secretHeaders' | 'secretParams'>
): UpstreamOptions {
  const p = ctx.config.publicData;
  return {
    ...o,
    baseUrl: u.url,
    requestsPerMinute: u.requestsPerMinute,
    timeoutMs: p.timeoutMs,
    maxBytes: p.maxBytes,
    cacheTtlMs: p.cacheTtlSeconds * 1000,
    userAgent: p.userAgent,
    sql: ctx.sql,
    signal: ctx.signal,
  };
}

-- Rate limiting per API key (decisions.md §7), exact across hub nodes: one row per key and
-- one-minute window, incremented by a single atomic upsert per request. Old windows are deleted
-- by every node's sweeper; the table holds about one row per active key.
-- UNLOGGED: the counters write no WAL, so a request pays no commit flush (measured ~0.3 ms per
-- upsert instead of ~1 ms). The price: a PostgreSQL crash empties the table (every key starts a
-- fresh window) and standbys do not have it; acceptable for a one-minute counter.

-- A tenant's own limit (requests per minute per key); null uses RATE_LIMIT_PER_MINUTE.
ALTER TABLE tenants ADD COLUMN rate_limit_per_minute integer
  CHECK (rate_limit_per_minute BETWEEN 1 AND 1000000);

CREATE UNLOGGED TABLE rate_limit_windows (
  key_hash text NOT NULL,                    -- the API key's sha256 (as in api_keys.key_hash)
  window_start timestamptz NOT NULL,         -- start of the one-minute window
  tenant_id text NOT NULL,                   -- for the tenant's "rate limit exceeded" alert
  hits integer NOT NULL DEFAULT 1,           -- requests in the window, rejected ones included
  PRIMARY KEY (key_hash, window_start)
);

CREATE INDEX rate_limit_windows_window_start_idx ON rate_limit_windows (window_start);

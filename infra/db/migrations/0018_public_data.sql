-- The public-data agents (trials, fda, epa, patents; data-sources.md §0): upstream answers cached
-- by request and one token bucket per upstream, both shared by every node of a cluster so a pool
-- spread over nodes asks an upstream once per request and never exceeds its rate together.
-- UNLOGGED: both are rebuilt from the upstreams; a PostgreSQL crash only empties them.

CREATE UNLOGGED TABLE public_data_cache (
  key text PRIMARY KEY,                -- sha256 of the source and the request URL (keys left out)
  source text NOT NULL,                -- the upstream, e.g. "ClinicalTrials.gov"
  body text NOT NULL,                  -- the upstream's JSON answer as received
  retrieved_at timestamptz NOT NULL,   -- when the upstream answered (the provenance's retrievedAt)
  expires_at timestamptz NOT NULL
);

CREATE INDEX public_data_cache_expires_at_idx ON public_data_cache (expires_at);

CREATE UNLOGGED TABLE public_data_buckets (
  upstream text PRIMARY KEY,           -- e.g. "clinicaltrials"
  tokens double precision NOT NULL,    -- requests allowed now, refilled at the upstream's rate
  refilled_at timestamptz NOT NULL,    -- when `tokens` was last brought up to date
  blocked_until timestamptz            -- the upstream's Retry-After: nobody asks before then
);

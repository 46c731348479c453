-- Issue 28 items 3–5: spending budgets, agents' email switch, named and scoped API keys, and the
-- `unlisted` visibility. Every change adds columns with defaults or new tables, so nodes of the
-- previous release keep working while this one rolls out.

-- ---- keys (item 5) --------------------------------------------------------------------------
-- Keys issued before this migration (and the key made with an agent) keep every scope and never
-- expire: nothing that works today stops working.
ALTER TABLE api_keys
  ADD COLUMN name text CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$'),
  ADD COLUMN scopes text[] NOT NULL DEFAULT '{messages,discovery,manage}'
    CHECK (cardinality(scopes) > 0 AND scopes <@ '{messages,discovery,manage}'::text[]),
  ADD COLUMN expires_at timestamptz;

-- A name picks one live key of an agent (revoke it, rotate it); revoked keys free their name.
CREATE UNIQUE INDEX api_keys_agent_name_key ON api_keys (agent_id, name)
  WHERE name IS NOT NULL AND revoked_at IS NULL;

-- ---- visibility (item 5) --------------------------------------------------------------------
-- `unlisted`: any tenant may message it by id, but search, nearby and listings leave it out. The
-- directory's copies (0013) store `visibility = 'public'`, so it is absent there with no change.
ALTER TABLE agents DROP CONSTRAINT agents_visibility_check;
ALTER TABLE agents ADD CONSTRAINT agents_visibility_check
  CHECK (visibility IN ('private', 'public', 'unlisted'));

-- ---- email (item 4) -------------------------------------------------------------------------
-- An agent with email disabled keeps its address history (postie_addresses), but mail to any of
-- its addresses bounces and it cannot send; enabling it again restores both.
ALTER TABLE agents ADD COLUMN email_enabled boolean NOT NULL DEFAULT true;

-- ---- spending (item 3) ----------------------------------------------------------------------
-- Who spent a debit: null for spending nobody in particular caused (and for every row before).
ALTER TABLE credit_ledger ADD COLUMN agent_id text;

-- Budgets in credits (minor units, as the ledger). agent_id '' is the tenant-wide budget (a text
-- key rather than null, so the primary key covers it).
CREATE TABLE spending_budgets (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  agent_id text NOT NULL DEFAULT '',
  period text NOT NULL CHECK (period IN ('daily', 'monthly')),
  limit_credits bigint NOT NULL CHECK (limit_credits BETWEEN 1 AND 1000000000000),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, agent_id, period)
);

-- What was spent per budget key and period (UTC day, or UTC month as its first day), kept by the
-- debit's own transaction, so checking a budget never sums the ledger. `alerted` is the highest
-- threshold (80, 100) already announced for this period: each crossing is announced once.
CREATE TABLE spending_totals (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  agent_id text NOT NULL DEFAULT '',
  period text NOT NULL CHECK (period IN ('daily', 'monthly')),
  period_start date NOT NULL,
  spent bigint NOT NULL DEFAULT 0 CHECK (spent >= 0),
  alerted smallint NOT NULL DEFAULT 0 CHECK (alerted IN (0, 80, 100)),
  PRIMARY KEY (tenant_id, agent_id, period, period_start)
);

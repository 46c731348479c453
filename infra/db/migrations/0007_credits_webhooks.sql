-- Credits and account webhooks (issue 6): a per-tenant ledger in integer minor units (cents for USD; never floating
-- point), the tenant's balance and low-balance threshold, and an outbox of the account events the
-- ledger causes, so an event is published even when the writer (the CLI) has no NATS at hand.

CREATE TABLE credit_accounts (
  tenant_id text PRIMARY KEY REFERENCES tenants (id),
  currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  low_balance_threshold bigint CHECK (low_balance_threshold >= 0),   -- null: no alerting
  -- True from the moment the balance fell below the threshold until it is back at or above it:
  -- credits.low_balance is emitted once per crossing, not on every debit below the line.
  below_threshold boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE credit_ledger (
  id bigserial PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id),
  amount bigint NOT NULL CHECK (amount <> 0),  -- minor units; purchases positive, debits negative
  balance_after bigint NOT NULL CHECK (balance_after >= 0),
  kind text NOT NULL CHECK (kind IN ('purchase', 'debit')),
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX credit_ledger_tenant_id_idx ON credit_ledger (tenant_id, id);

-- Written in the same transaction as the ledger change; the hub's relay publishes each row to
-- HUB_EVENTS with its id as the Nats-Msg-Id (a re-publish is stored once), then stamps it.
CREATE TABLE event_outbox (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id),
  event text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);

CREATE INDEX event_outbox_pending_idx ON event_outbox (created_at) WHERE published_at IS NULL;

-- Account webhooks (interface-spec "Events", decisions.md §9). `failing` after a delivery's last
-- retry failed; a failing webhook still gets later events, one attempt each without retries, and
-- is active again after any successful delivery (a test event included).
CREATE TABLE webhooks (
  id text PRIMARY KEY,                       -- wh-<12 hex>
  tenant_id text NOT NULL REFERENCES tenants (id),
  url text NOT NULL,
  events text[] NOT NULL CHECK (cardinality(events) > 0),
  secret text NOT NULL,                      -- HMAC key: the hub signs with it, so kept in clear
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'failing')),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);

CREATE INDEX webhooks_tenant_id_idx ON webhooks (tenant_id) WHERE deleted_at IS NULL;

-- One row per (webhook, event): the durable retry schedule. A node claims due rows with a lease
-- (next_at pushed ahead), so a node that dies mid-delivery leaves the row due again later.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,                       -- X-Hub-Delivery, the same on every retry
  webhook_id text NOT NULL REFERENCES webhooks (id),
  event_id text NOT NULL,                    -- the HUB_EVENTS id (Nats-Msg-Id)
  event text NOT NULL,
  body text NOT NULL,                        -- the exact signed payload
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,             -- 4 (first try + 3 retries), or 1 while failing
  next_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (webhook_id, event_id)
);

CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_at) WHERE status = 'pending';

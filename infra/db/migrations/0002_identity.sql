-- Identity (decisions.md §5): tenants (organisations), their agents, and API keys. Keys are stored
-- only as a SHA-256 hash; agent_id null on a key makes it a tenant admin key.

CREATE TABLE tenants (
  id text PRIMARY KEY,                       -- ten-<12 hex>; the official tenant is ten-official
  name text NOT NULL UNIQUE,
  slug text NOT NULL UNIQUE,                 -- lowercase, [a-z0-9-]; used in addresses (postie)
  verified boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agents (
  id text PRIMARY KEY,                       -- agent-<12 hex>, or a canonical official id
  tenant_id text NOT NULL REFERENCES tenants (id),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  alias text,                                -- short name, unique within its tenant
  transport text NOT NULL CHECK (transport IN ('websocket', 'http', 'official')),
  url text,                                  -- where the hub POSTs to an HTTP agent
  -- Stored in clear on purpose: unlike an API key, the hub itself must present this secret to the
  -- agent (Authorization: Bearer <secret>) on every delivery, so a one-way hash would be useless.
  webhook_secret text,
  visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'public')),
  category text,
  tags jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tags) = 'array'),
  card jsonb,                                -- the agent card as registered or fetched
  queue_max_pending integer NOT NULL DEFAULT 500
    CHECK (queue_max_pending BETWEEN 1 AND 100000),
  queue_ttl_seconds integer NOT NULL DEFAULT 2592000
    CHECK (queue_ttl_seconds BETWEEN 1 AND 2592000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,                    -- soft delete: task history keeps pointing here
  CHECK (transport <> 'http' OR url IS NOT NULL)
);

CREATE UNIQUE INDEX agents_tenant_id_alias_key ON agents (tenant_id, alias) WHERE alias IS NOT NULL;
CREATE INDEX agents_tenant_id_idx ON agents (tenant_id);

CREATE TABLE api_keys (
  id text PRIMARY KEY,                       -- key-<16 hex>; names a key without revealing it
  tenant_id text NOT NULL REFERENCES tenants (id),
  agent_id text REFERENCES agents (id),      -- null: a tenant admin key
  key_hash text NOT NULL UNIQUE,             -- sha256 hex of the key; the key itself is never kept
  prefix text NOT NULL,                      -- first characters of the key, to recognise it in lists
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- Rotation revokes every active key of one agent.
CREATE INDEX api_keys_agent_id_idx ON api_keys (agent_id) WHERE agent_id IS NOT NULL;
CREATE INDEX api_keys_tenant_id_idx ON api_keys (tenant_id);

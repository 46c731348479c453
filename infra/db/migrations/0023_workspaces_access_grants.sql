-- Teams (issue 28 items 1 and 2): workspaces several agents share (of one tenant or several, by
-- invitation), with typed memories recalled by meaning and secrets encrypted by the hub; and access
-- grants that let one agent message another tenant's private agent.

CREATE TABLE workspaces (
  id text PRIMARY KEY,                                   -- ws_<24 hex>
  tenant_id text NOT NULL REFERENCES tenants (id),       -- the creator's tenant (owns it)
  name text NOT NULL CHECK (name <> '' AND char_length(name) <= 100),
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 1000),
  created_by text NOT NULL REFERENCES agents (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX workspaces_tenant_idx ON workspaces (tenant_id);

-- An agent of another tenant is 'invited' until it joins (members.add of itself): nobody is put
-- into a shared space, or handed its secrets, without its own say.
CREATE TABLE workspace_members (
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  agent_id text NOT NULL REFERENCES agents (id),
  tenant_id text NOT NULL REFERENCES tenants (id),
  role text NOT NULL CHECK (role IN ('owner', 'member')),
  status text NOT NULL CHECK (status IN ('active', 'invited')),
  added_by text NOT NULL REFERENCES agents (id),
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, agent_id)
);

-- "My workspaces" is every read's first step.
CREATE INDEX workspace_members_agent_idx ON workspace_members (agent_id);

CREATE TABLE workspace_memories (
  id text PRIMARY KEY,                                   -- wsm_<24 hex>
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  type text NOT NULL CHECK (type ~ '^[a-z][a-z0-9_-]{0,39}$'),
  content text NOT NULL CHECK (content <> '' AND octet_length(content) <= 8192),
  tags text[] NOT NULL DEFAULT '{}',
  author_agent_id text NOT NULL REFERENCES agents (id),
  -- Vectors are only comparable within one embedder (decisions.md §10).
  embedder_id text NOT NULL,
  embedding real[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Reads are one workspace's memories, newest first or all of them for an exact ranking scan.
CREATE INDEX workspace_memories_ws_seq_idx ON workspace_memories (workspace_id, seq DESC);

-- Only ciphertext: AES-256-GCM under WORKSPACE_SECRET_KEY, with the workspace and name as
-- associated data (a row copied to another workspace or name does not decrypt). key_id names the
-- key (a hash prefix), so a changed key is reported as such instead of as corrupt data.
CREATE TABLE workspace_secrets (
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[A-Za-z_][A-Za-z0-9_.-]{0,99}$'),
  key_id text NOT NULL,
  iv bytea NOT NULL,
  ciphertext bytea NOT NULL,
  auth_tag bytea NOT NULL,
  updated_by text NOT NULL REFERENCES agents (id),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, name)
);

-- One row per (requester, target): asking again while pending or denied reopens the same row.
CREATE TABLE access_requests (
  id text PRIMARY KEY,                                   -- acr_<24 hex>
  requester_agent_id text NOT NULL REFERENCES agents (id),
  requester_tenant_id text NOT NULL REFERENCES tenants (id),
  target_agent_id text NOT NULL REFERENCES agents (id),
  target_tenant_id text NOT NULL REFERENCES tenants (id),
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
  message text NOT NULL DEFAULT '' CHECK (char_length(message) <= 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  UNIQUE (requester_agent_id, target_agent_id),
  CHECK (requester_agent_id <> target_agent_id)
);

-- The owner's inbox (pending first) and the grant check (either direction of a pair).
CREATE INDEX access_requests_target_tenant_idx ON access_requests (target_tenant_id, status);
CREATE INDEX access_requests_target_idx ON access_requests (target_agent_id, requester_agent_id)
  WHERE status = 'approved';

-- The owner's choice per agent: approve every request at once. A table of its own, not a column
-- of agents, so the agent record (cached on every node) does not change shape for it.
CREATE TABLE agent_access_settings (
  agent_id text PRIMARY KEY REFERENCES agents (id),
  auto_approve boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

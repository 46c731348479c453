-- The memory agent's store (issue 7): short texts an agent asks to remember, private to that agent
-- (tenant and owner come from the hub-verified envelope), each with the vector its meaning is
-- recalled by. Vectors are only comparable within one embedder, so each row names its embedder.

CREATE TABLE memory_items (
  id text PRIMARY KEY,                                   -- mem_<24 hex>
  tenant_id text NOT NULL REFERENCES tenants (id),
  owner_agent_id text NOT NULL REFERENCES agents (id),
  -- Insertion order: "newest first" must not depend on two stores landing in one microsecond.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  content text NOT NULL CHECK (content <> '' AND octet_length(content) <= 8192),
  -- The key of "same content, same agent" (a btree cannot hold 8 KiB values themselves). md5, as
  -- sha256 of text needs convert_to, which is not immutable; a collision could only merge two of
  -- one agent's own memories.
  content_hash text GENERATED ALWAYS AS (md5(content)) STORED,
  tags text[] NOT NULL DEFAULT '{}',
  embedder_id text NOT NULL,
  embedding real[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX memory_items_owner_content_key
  ON memory_items (tenant_id, owner_agent_id, content_hash);

-- Every read is one owner's memories, newest first (list) or all of them (recall scans the owner's
-- rows; per-agent sets are small enough that an exact scan beats an approximate index).
CREATE INDEX memory_items_owner_seq_idx ON memory_items (tenant_id, owner_agent_id, seq DESC);

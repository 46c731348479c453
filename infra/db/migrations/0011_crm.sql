-- CRM agent data (interface-spec "CRM agent data"): entities with typed metadata, links between
-- them, and interactions logged against them. One CRM per tenant: every agent of a tenant sees the
-- same records, so rows carry tenant_id (from the hub-verified envelope) and the sending agent only
-- as created_by / updated_by. Links, metadata and interactions reference entities through
-- (tenant_id, id), so the database itself refuses a row that ties two tenants together.

CREATE TABLE crm_entities (
  id text PRIMARY KEY,                       -- crm_ent_<16 hex>
  tenant_id text NOT NULL,
  type text NOT NULL,                        -- person, organisation, product, deal or custom; lower case
  name text NOT NULL CHECK (name <> ''),
  description text NOT NULL DEFAULT '',
  -- Unit vector of name + description; compared only with vectors of the same embedder_id.
  embedding real[],
  embedder_id text,
  created_by text NOT NULL,                  -- agent id of the sender that created it
  updated_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id)
);

-- The natural key of entity:upsert without an id: one entity per (tenant, type, name ignoring case).
CREATE UNIQUE INDEX crm_entities_natural_key ON crm_entities (tenant_id, type, lower(name));
CREATE INDEX crm_entities_tenant_name_idx ON crm_entities (tenant_id, lower(name));

-- One row per (entity, key). Exactly one value column is set, chosen by kind; dates and
-- date-times share value_time (a date is midnight UTC) so they compare with each other.
CREATE TABLE crm_meta (
  tenant_id text NOT NULL,
  entity_id text NOT NULL,
  key text NOT NULL CHECK (key ~ '^[a-z][a-z0-9_]*$'),
  kind text NOT NULL CHECK (kind IN ('number', 'date', 'datetime', 'string', 'boolean')),
  value_num double precision,
  value_time timestamptz,
  -- Code-point order, so string comparisons do not depend on the server's locale.
  value_text text COLLATE "C",
  value_bool boolean,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, entity_id, key),
  FOREIGN KEY (tenant_id, entity_id) REFERENCES crm_entities (tenant_id, id) ON DELETE CASCADE,
  CHECK (
    (kind = 'number' AND value_num IS NOT NULL AND value_time IS NULL AND value_text IS NULL AND value_bool IS NULL)
    OR (kind IN ('date', 'datetime') AND value_time IS NOT NULL AND value_num IS NULL AND value_text IS NULL AND value_bool IS NULL)
    OR (kind = 'string' AND value_text IS NOT NULL AND value_num IS NULL AND value_time IS NULL AND value_bool IS NULL)
    OR (kind = 'boolean' AND value_bool IS NOT NULL AND value_num IS NULL AND value_time IS NULL AND value_text IS NULL)
  )
);

-- meta:search compares one key's values within a tenant. These cover every key, the well-known
-- ones (email, close_date, probability, deal_size_estimate) included; the partial indexes below
-- keep the well-known keys' lookups small when a tenant stores many custom keys.
CREATE INDEX crm_meta_num_idx ON crm_meta (tenant_id, key, value_num) WHERE kind = 'number';
CREATE INDEX crm_meta_time_idx ON crm_meta (tenant_id, key, value_time) WHERE kind IN ('date', 'datetime');
CREATE INDEX crm_meta_text_idx ON crm_meta (tenant_id, key, lower(value_text)) WHERE kind = 'string';
CREATE INDEX crm_meta_email_idx ON crm_meta (tenant_id, lower(value_text)) WHERE key = 'email';
CREATE INDEX crm_meta_close_date_idx ON crm_meta (tenant_id, value_time) WHERE key = 'close_date';
CREATE INDEX crm_meta_probability_idx ON crm_meta (tenant_id, value_num) WHERE key = 'probability';
CREATE INDEX crm_meta_deal_size_idx ON crm_meta (tenant_id, value_num) WHERE key = 'deal_size_estimate';

CREATE TABLE crm_links (
  id text PRIMARY KEY,                       -- crm_lnk_<16 hex>
  tenant_id text NOT NULL,
  from_id text NOT NULL,
  to_id text NOT NULL,
  relation text NOT NULL CHECK (relation ~ '^[a-z][a-z0-9_]*$'),  -- works_at, purchased, competes_with or custom
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (from_id <> to_id),
  UNIQUE (tenant_id, from_id, to_id, relation),
  FOREIGN KEY (tenant_id, from_id) REFERENCES crm_entities (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, to_id) REFERENCES crm_entities (tenant_id, id) ON DELETE CASCADE
);

CREATE INDEX crm_links_to_idx ON crm_links (tenant_id, to_id);

CREATE TABLE crm_interactions (
  id text PRIMARY KEY,                       -- crm_int_<16 hex>
  tenant_id text NOT NULL,
  entity_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('email', 'call', 'meeting', 'note')),
  text text NOT NULL CHECK (text <> ''),
  occurred_at timestamptz NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, entity_id) REFERENCES crm_entities (tenant_id, id) ON DELETE CASCADE
);

CREATE INDEX crm_interactions_entity_idx ON crm_interactions (tenant_id, entity_id, occurred_at DESC);

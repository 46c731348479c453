-- The shared entity graph (issue 24, data-sources.md "research"): what the public-data agents
-- fetched, as nodes (companies, people, awards, filings, patents, trials, lobbying filings,
-- facilities, products) and edges, each with its provenance. Identities are joined by identifiers
-- (CIK, ticker, LEI, UEI, Companies House number, EPA registry id, NCT id, patent application
-- number…) and by normalised names: exact, or trigram similarity (pg_trgm, 0001) kept on the edge.
-- Public data only, shared by every tenant; the agents write it, agent-research reads it.

CREATE TABLE entity_nodes (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('company', 'person', 'award', 'filing', 'patent', 'trial',
                                     'lobbying_filing', 'facility', 'product')),
  name text NOT NULL CHECK (name <> ''),     -- as first seen
  -- Upper case, accents and punctuation removed, legal suffixes (INC, LLC, CORP…) stripped.
  norm_name text NOT NULL CHECK (norm_name <> ''),
  attrs jsonb NOT NULL DEFAULT '{}',         -- the latest facts a dataset gave (city, status…)
  first_seen timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX entity_nodes_kind_norm_idx ON entity_nodes (kind, norm_name);
CREATE INDEX entity_nodes_norm_trgm_idx ON entity_nodes USING gin (norm_name gin_trgm_ops);

-- One identifier names one node: two datasets giving the same CIK (or NCT id…) meet on one node.
CREATE TABLE entity_identifiers (
  scheme text NOT NULL,                      -- cik, ticker, lei, uei, companies_house, epa_registry,
                                             -- nct, patent_application, patent_number, …
  value text NOT NULL,                       -- normalised per scheme (CIK 10 digits, upper case…)
  node_id bigint NOT NULL REFERENCES entity_nodes (id) ON DELETE CASCADE,
  PRIMARY KEY (scheme, value)
);

CREATE INDEX entity_identifiers_node_idx ON entity_identifiers (node_id);

-- Every sighting of a node by a dataset, and how it was tied to the node: its provenance.
CREATE TABLE entity_mentions (
  node_id bigint NOT NULL REFERENCES entity_nodes (id) ON DELETE CASCADE,
  agent_id text NOT NULL,                    -- the agent that fetched it
  dataset text NOT NULL,                     -- the upstream, e.g. "ClinicalTrials.gov"
  record text NOT NULL,                      -- the upstream record (NCT id, application number…)
  name text NOT NULL,                        -- the name as that dataset spells it
  matched_by text NOT NULL CHECK (matched_by IN ('new', 'identifier', 'name')),
  match_key text,                            -- "cik=0000320193", or the normalised name
  url text NOT NULL,                         -- the upstream request, keys left out
  fetched_at timestamptz NOT NULL,           -- when the upstream answered
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (node_id, dataset, record, name)
);

CREATE INDEX entity_mentions_dataset_idx ON entity_mentions (dataset, node_id);

-- A relation between two nodes, with the record that states it (method 'record'), or a match of
-- names (method 'name', with the trigram score) or of identifiers (method 'identifier').
CREATE TABLE entity_edges (
  src bigint NOT NULL REFERENCES entity_nodes (id) ON DELETE CASCADE,
  dst bigint NOT NULL REFERENCES entity_nodes (id) ON DELETE CASCADE,
  relation text NOT NULL,                    -- sponsors, manufactures, operates, same_as, …
  dataset text NOT NULL,
  method text NOT NULL CHECK (method IN ('record', 'identifier', 'name')),
  score real CHECK (score IS NULL OR (score >= 0 AND score <= 1)),
  detail text,                               -- what matched: "ACME PHARMA ~ ACME PHARMACEUTICALS"
  agent_id text NOT NULL,
  record text NOT NULL,
  url text NOT NULL,
  fetched_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (src, dst, relation, dataset),
  CHECK (src <> dst)
);

CREATE INDEX entity_edges_dst_idx ON entity_edges (dst);

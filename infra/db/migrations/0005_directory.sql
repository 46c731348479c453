-- The discovery directory (issue 5; interface-spec "Discovery"): search fields derived from each
-- agent's name, description, tags and card; a lexicon of every indexed word for typo tolerance;
-- geocoded locations; ratings; and the denormalized figures the directory sorts by.

-- Lets one GIN index hold plain columns beside the text and array ones (trusted, in contrib).
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- unaccent() is only STABLE (its dictionary could change), so it cannot appear in an index or be
-- trusted by the planner; the dictionary is fixed here, which makes the folding immutable.
CREATE FUNCTION burrow_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;

ALTER TABLE agents
  -- Written only by the agents_directory_fields trigger below.
  ADD COLUMN search_tsv tsvector NOT NULL DEFAULT ''::tsvector,
  ADD COLUMN category_key text,
  ADD COLUMN tag_keys text[] NOT NULL DEFAULT '{}',
  ADD COLUMN skill_tags text[] NOT NULL DEFAULT '{}',
  ADD COLUMN content_modes text[] NOT NULL DEFAULT '{}',
  -- Copies of the tenant's `verified` and of the agent's location countries, kept by triggers
  -- below, so that every search filter is a column of the one directory index.
  ADD COLUMN tenant_verified boolean NOT NULL DEFAULT false,
  ADD COLUMN countries text[] NOT NULL DEFAULT '{}',
  -- Kept in step with agent_ratings by the ratings repo, in the rating's transaction.
  ADD COLUMN rating_avg double precision NOT NULL DEFAULT 0,
  ADD COLUMN rating_count integer NOT NULL DEFAULT 0,
  -- Tasks received, recounted from the tasks table at most once a minute (agent_usage_refresh).
  ADD COLUMN usage_count bigint NOT NULL DEFAULT 0;

-- Card lists read defensively: a card is whatever JSON object the agent registered.
CREATE FUNCTION burrow_json_strings(value jsonb) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(value) = 'array' THEN value
                                              ELSE '[]'::jsonb END) $$;

CREATE FUNCTION agents_directory_fields() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  card jsonb := CASE WHEN jsonb_typeof(NEW.card) = 'object' THEN NEW.card ELSE '{}'::jsonb END;
  skills jsonb := CASE WHEN jsonb_typeof(card -> 'skills') = 'array' THEN card -> 'skills'
                       ELSE '[]'::jsonb END;
  plain_tags text;
BEGIN
  NEW.tenant_verified := coalesce((SELECT verified FROM tenants WHERE id = NEW.tenant_id), false);
  NEW.category_key := burrow_fold(NEW.category);
  NEW.tag_keys := ARRAY(SELECT DISTINCT burrow_fold(t) FROM burrow_json_strings(NEW.tags) t);
  NEW.skill_tags := ARRAY(
    SELECT DISTINCT burrow_fold(t)
    FROM jsonb_array_elements(skills) s, burrow_json_strings(s -> 'tags') t);
  -- Each media type, plus its family as `type/*`, so contentMode=image/* finds any image mode.
  NEW.content_modes := ARRAY(
    WITH modes AS (
      SELECT lower(trim(m)) AS m
      FROM (SELECT card -> 'defaultInputModes' AS list
            UNION ALL SELECT card -> 'defaultOutputModes'
            UNION ALL SELECT s -> 'inputModes' FROM jsonb_array_elements(skills) s
            UNION ALL SELECT s -> 'outputModes' FROM jsonb_array_elements(skills) s) lists,
           burrow_json_strings(lists.list) m)
    SELECT m FROM modes WHERE m <> ''
    UNION
    SELECT split_part(m, '/', 1) || '/*' FROM modes WHERE position('/' IN m) > 1);
  -- A location tag is searched by its address.
  plain_tags := (SELECT string_agg(regexp_replace(t, '^location:', '', 'i'), ' ')
                 FROM burrow_json_strings(NEW.tags) t);
  -- Weights rank a match in the name above one in the tags, the description, the skills' tags.
  NEW.search_tsv :=
    setweight(to_tsvector('english', burrow_fold(NEW.name)), 'A') ||
    setweight(to_tsvector('english', coalesce(burrow_fold(plain_tags), '')), 'B') ||
    setweight(to_tsvector('english', burrow_fold(NEW.description)), 'C') ||
    setweight(to_tsvector('english', array_to_string(NEW.skill_tags, ' ')), 'D');
  RETURN NEW;
END $$;

CREATE TRIGGER agents_directory_fields
  BEFORE INSERT OR UPDATE OF tenant_id, name, description, category, tags, card ON agents
  FOR EACH ROW EXECUTE FUNCTION agents_directory_fields();

CREATE FUNCTION tenants_verified_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE agents SET tenant_verified = NEW.verified WHERE tenant_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER tenants_verified_sync
  AFTER UPDATE OF verified ON tenants
  FOR EACH ROW WHEN (OLD.verified IS DISTINCT FROM NEW.verified)
  EXECUTE FUNCTION tenants_verified_sync();

-- Every word the directory has indexed. A misspelt query word is matched to its nearest entries
-- here (trigram similarity over short words is cheap), and the search then runs on the
-- full-text index, so typo tolerance costs nothing per candidate agent. Words are never removed:
-- a stale one only widens a query by a term that matches no agent.
CREATE TABLE directory_lexicon (word text PRIMARY KEY);

CREATE FUNCTION directory_lexicon_add() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO directory_lexicon (word)
  SELECT lexeme FROM unnest(NEW.search_tsv) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- The same columns as above: a column list only sees the UPDATE's own SET list, never what a
-- BEFORE trigger changed.
CREATE TRIGGER agents_directory_lexicon
  AFTER INSERT OR UPDATE OF tenant_id, name, description, category, tags, card ON agents
  FOR EACH ROW EXECUTE FUNCTION directory_lexicon_add();

-- Existing rows (official agents, registered agents) get their fields now.
UPDATE agents SET name = name;

-- A lexeme as a quoted tsquery operand: quotes doubled, backslashes escaped.
CREATE FUNCTION burrow_tsquery_term(lexeme text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''' $$;

-- The search query for `words` (the caller's words, already split): every word must match, each
-- as a prefix of an indexed word or, when `fuzzy`, as one of its three nearest lexicon words.
-- NULL when no word is searchable (only stop words). Seq scans are off inside: the lexicon look-up
-- is planned once for any word, and the trigram index is always the right plan for it.
CREATE FUNCTION directory_query(words text[], fuzzy boolean) RETURNS tsquery
  LANGUAGE sql STABLE PARALLEL SAFE
  SET enable_seqscan = off
  AS $$
  WITH term AS (
    SELECT u.ord, l.lexeme
    FROM unnest(words) WITH ORDINALITY AS u(w, ord),
         LATERAL unnest(to_tsvector('english', burrow_fold(u.w))) AS l
  ),
  alt AS (
    SELECT term.ord, burrow_tsquery_term(term.lexeme) || ':*' AS q FROM term
    UNION ALL
    SELECT term.ord, burrow_tsquery_term(near.word)
    FROM term, LATERAL (
      SELECT x.word FROM directory_lexicon x
      WHERE fuzzy AND x.word % term.lexeme AND x.word <> term.lexeme
      ORDER BY similarity(x.word, term.lexeme) DESC, x.word
      LIMIT 3) near
  )
  SELECT string_agg(g, ' & ')::tsquery
  FROM (SELECT '(' || string_agg(q, ' | ') || ')' AS g FROM alt GROUP BY ord) per_word
$$;

-- Searches far outnumber writes: fastupdate off keeps every GIN index free of a pending list
-- that each search would otherwise scan.
CREATE INDEX directory_lexicon_trgm ON directory_lexicon
  USING gin (word gin_trgm_ops) WITH (fastupdate = off);
-- One index for the text query and every filter: a multicolumn GIN index intersects the
-- conditions on any subset of its columns inside the index, so a common word plus two filters
-- reads only the rows matching all three instead of every row holding the word.
CREATE INDEX agents_directory ON agents
  USING gin (search_tsv, category_key, tag_keys, skill_tags, content_modes, tenant_verified,
             tenant_id, countries)
  WITH (fastupdate = off) WHERE deleted_at IS NULL;
CREATE INDEX agents_by_rating ON agents (rating_avg DESC, rating_count DESC, id)
  WHERE deleted_at IS NULL;
CREATE INDEX agents_by_usage ON agents (usage_count DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX agents_by_created ON agents (created_at DESC, id) WHERE deleted_at IS NULL;

-- Geocoded `location:` tags (at most 3 per agent). `pos` is ll_to_earth(lat, lng), stored rather
-- than indexed as an expression, so index upkeep never depends on the earthdistance functions'
-- search_path.
CREATE TABLE agent_locations (
  agent_id text NOT NULL REFERENCES agents (id),
  tag text NOT NULL,
  lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lng double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
  display_name text NOT NULL,
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  pos cube NOT NULL,
  position smallint NOT NULL,
  PRIMARY KEY (agent_id, tag)
);
CREATE INDEX agent_locations_pos ON agent_locations USING gist (pos);

CREATE FUNCTION agent_locations_countries() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  target text := CASE WHEN TG_OP = 'DELETE' THEN OLD.agent_id ELSE NEW.agent_id END;
BEGIN
  UPDATE agents SET countries = ARRAY(
    SELECT DISTINCT l.country FROM agent_locations l WHERE l.agent_id = target ORDER BY 1)
  WHERE agents.id = target;
  RETURN NULL;
END $$;

CREATE TRIGGER agent_locations_countries
  AFTER INSERT OR UPDATE OR DELETE ON agent_locations
  FOR EACH ROW EXECUTE FUNCTION agent_locations_countries();

-- One rating per rating agent per rated agent; a new one replaces the old.
CREATE TABLE agent_ratings (
  agent_id text NOT NULL REFERENCES agents (id),
  rater_agent_id text NOT NULL REFERENCES agents (id),
  rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  review text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, rater_agent_id)
);
CREATE INDEX agent_ratings_recent ON agent_ratings (agent_id, created_at DESC);

-- When agents.usage_count was last recounted; one row, shared by every node.
CREATE TABLE agent_usage_refresh (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  refreshed_at timestamptz NOT NULL
);
INSERT INTO agent_usage_refresh (refreshed_at) VALUES ('-infinity');

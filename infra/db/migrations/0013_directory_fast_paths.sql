-- Cheaper directory reads (issue 5, "Performance → Directory"): searches read a narrow table of
-- the search fields instead of the wide agent rows; what the nearby search filters on is copied
-- onto each location, so counting and ordering the places in a radius never reads an agent row;
-- and a generation number that any directory write moves, so a node can keep answers and know, in
-- the same round trip as the read, whether they still hold.

-- ---- Search over narrow rows ------------------------------------------------------------------

-- One row per live agent: only what search filters, ranks, counts and sorts by (about a third of
-- an agent row, so the matches of a common word stay in shared buffers and cost fewer pages).
-- Written only by the triggers below, from the agents columns the 0005 triggers derive.
CREATE TABLE directory_entries (
  id text PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,  -- the agent
  tenant_id text NOT NULL,
  public boolean NOT NULL,
  search_tsv tsvector NOT NULL,
  category text,
  category_key text,
  tag_keys text[] NOT NULL,
  skill_tags text[] NOT NULL,
  content_modes text[] NOT NULL,
  tenant_verified boolean NOT NULL,
  countries text[] NOT NULL,
  rating_avg double precision NOT NULL,
  rating_count integer NOT NULL,
  usage_count bigint NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE FUNCTION directory_entries_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.deleted_at IS NOT NULL THEN
    DELETE FROM directory_entries WHERE id = NEW.id;
    RETURN NULL;
  END IF;
  INSERT INTO directory_entries (id, tenant_id, public, search_tsv, category, category_key,
    tag_keys, skill_tags, content_modes, tenant_verified, countries, rating_avg, rating_count,
    usage_count, created_at)
  VALUES (NEW.id, NEW.tenant_id, NEW.visibility = 'public', NEW.search_tsv, NEW.category,
    NEW.category_key, NEW.tag_keys, NEW.skill_tags, NEW.content_modes, NEW.tenant_verified,
    NEW.countries, NEW.rating_avg, NEW.rating_count, NEW.usage_count, NEW.created_at)
  ON CONFLICT (id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, public = EXCLUDED.public,
    search_tsv = EXCLUDED.search_tsv, category = EXCLUDED.category,
    category_key = EXCLUDED.category_key,
    tag_keys = EXCLUDED.tag_keys, skill_tags = EXCLUDED.skill_tags,
    content_modes = EXCLUDED.content_modes, tenant_verified = EXCLUDED.tenant_verified,
    countries = EXCLUDED.countries, rating_avg = EXCLUDED.rating_avg,
    rating_count = EXCLUDED.rating_count, usage_count = EXCLUDED.usage_count,
    created_at = EXCLUDED.created_at;
  RETURN NULL;
END $$;

CREATE TRIGGER agents_directory_entries_insert
  AFTER INSERT ON agents
  FOR EACH ROW EXECUTE FUNCTION directory_entries_sync();
-- No column list (derived columns are set by BEFORE triggers, which a column list does not see);
-- the WHEN clause skips updates that change nothing the directory holds.
CREATE TRIGGER agents_directory_entries_update
  AFTER UPDATE ON agents
  FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.visibility, OLD.deleted_at IS NULL, OLD.search_tsv, OLD.category,
         OLD.category_key, OLD.tag_keys, OLD.skill_tags, OLD.content_modes, OLD.tenant_verified,
         OLD.countries, OLD.rating_avg, OLD.rating_count, OLD.usage_count, OLD.created_at)
        IS DISTINCT FROM
        (NEW.tenant_id, NEW.visibility, NEW.deleted_at IS NULL, NEW.search_tsv, NEW.category,
         NEW.category_key, NEW.tag_keys, NEW.skill_tags, NEW.content_modes, NEW.tenant_verified,
         NEW.countries, NEW.rating_avg, NEW.rating_count, NEW.usage_count, NEW.created_at))
  EXECUTE FUNCTION directory_entries_sync();

INSERT INTO directory_entries (id, tenant_id, public, search_tsv, category, category_key,
  tag_keys, skill_tags, content_modes, tenant_verified, countries, rating_avg, rating_count,
  usage_count, created_at)
SELECT id, tenant_id, visibility = 'public', search_tsv, category, category_key, tag_keys,
  skill_tags, content_modes, tenant_verified, countries, rating_avg, rating_count, usage_count, created_at
FROM agents WHERE deleted_at IS NULL;

-- The one index of 0005's design (every filter and the text in one GIN index), moved here; the
-- sort indexes go without a replacement: every search collects all its matches for the exact
-- count, and then sorts only their narrow keys.
DROP INDEX agents_directory;
DROP INDEX agents_by_rating;
DROP INDEX agents_by_usage;
DROP INDEX agents_by_created;
CREATE INDEX directory_entries_search ON directory_entries
  USING gin (search_tsv, category_key, tag_keys, skill_tags, content_modes, tenant_verified,
             tenant_id, countries)
  WITH (fastupdate = off);

-- ---- Nearby without agent rows ----------------------------------------------------------------

-- Copies of the agent's fields the nearby search filters on, kept by the triggers below.
ALTER TABLE agent_locations
  ADD COLUMN tenant_id text,
  ADD COLUMN public boolean NOT NULL DEFAULT false,
  ADD COLUMN live boolean NOT NULL DEFAULT false,
  ADD COLUMN category_key text,
  ADD COLUMN tag_keys text[] NOT NULL DEFAULT '{}';

CREATE FUNCTION agent_locations_agent_fields() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.tenant_id, a.visibility = 'public', a.deleted_at IS NULL, a.category_key, a.tag_keys
    INTO NEW.tenant_id, NEW.public, NEW.live, NEW.category_key, NEW.tag_keys
    FROM agents a WHERE a.id = NEW.agent_id;
  RETURN NEW;
END $$;

CREATE TRIGGER agent_locations_agent_fields
  BEFORE INSERT OR UPDATE OF agent_id ON agent_locations
  FOR EACH ROW EXECUTE FUNCTION agent_locations_agent_fields();

CREATE FUNCTION agents_location_fields() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE agent_locations l
  SET tenant_id = NEW.tenant_id, public = NEW.visibility = 'public',
      live = NEW.deleted_at IS NULL, category_key = NEW.category_key, tag_keys = NEW.tag_keys
  WHERE l.agent_id = NEW.id;
  RETURN NULL;
END $$;

-- No column list: category_key and tag_keys are set by the BEFORE trigger, which a column list
-- would not see (it only sees the UPDATE's own SET list); the WHEN clause keeps it cheap.
CREATE TRIGGER agents_location_fields
  AFTER UPDATE ON agents
  FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.visibility, OLD.deleted_at IS NULL, OLD.category_key, OLD.tag_keys)
        IS DISTINCT FROM
        (NEW.tenant_id, NEW.visibility, NEW.deleted_at IS NULL, NEW.category_key, NEW.tag_keys))
  EXECUTE FUNCTION agents_location_fields();

-- agents.countries depends only on which agent a location belongs to and its country: copying the
-- fields above onto the locations must not rewrite every agent's countries.
DROP TRIGGER agent_locations_countries ON agent_locations;
CREATE TRIGGER agent_locations_countries
  AFTER INSERT OR DELETE OR UPDATE OF agent_id, country ON agent_locations
  FOR EACH ROW EXECUTE FUNCTION agent_locations_countries();

UPDATE agent_locations SET agent_id = agent_id;

-- The radius scan reads only this index (an index-only scan): the point, and what the count, the
-- visibility check and the de-duplication need. Locations of deleted agents are left out.
DROP INDEX agent_locations_pos;
CREATE INDEX agent_locations_live_pos ON agent_locations
  USING gist (pos) INCLUDE (agent_id, tag, position, public, tenant_id) WHERE live;

-- ---- The directory's generation ---------------------------------------------------------------

-- Moves (in the writing transaction, at its commit) whenever anything a search, nearby or
-- categories answer is made of changes: agents, their locations, tenants (names, verified).
-- Ratings and usage counts reach the directory through agents, so they move it too. A node that
-- kept an answer reads the generation in the same statement as a fresh read would, so an answer
-- is reused only when no directory write committed since it was computed.
CREATE TABLE directory_generation (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  gen bigint NOT NULL
);
INSERT INTO directory_generation (gen) VALUES (1);

-- Once per transaction however many rows it wrote: the transaction-local setting remembers that
-- this transaction already moved it.
CREATE FUNCTION directory_generation_bump() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('burrow.directory_bumped', true) IS DISTINCT FROM
     txid_current()::text THEN
    UPDATE directory_generation SET gen = gen + 1;
    PERFORM set_config('burrow.directory_bumped', txid_current()::text, true);
  END IF;
  RETURN NULL;
END $$;

-- Deferred to commit: the generation row is locked only for the instant of the commit, so writers
-- never wait on each other for it while holding agent rows (no deadlock between them).
CREATE CONSTRAINT TRIGGER agents_directory_generation
  AFTER INSERT OR UPDATE OR DELETE ON agents
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION directory_generation_bump();
CREATE CONSTRAINT TRIGGER agent_locations_directory_generation
  AFTER INSERT OR UPDATE OR DELETE ON agent_locations
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION directory_generation_bump();
CREATE CONSTRAINT TRIGGER tenants_directory_generation
  AFTER INSERT OR UPDATE OR DELETE ON tenants
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION directory_generation_bump();

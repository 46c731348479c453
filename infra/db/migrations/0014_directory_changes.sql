-- Which agents and tenants each directory generation changed (issue 5, "Performance →
-- Directory"). A node that holds the directory in memory reads the current generation on every
-- search; when it moved, the node reads the keys of the generations it missed and reloads only
-- those agents, in the same snapshot, instead of reading the whole directory again.
--
-- Why the generation is a safe cursor: the bump below runs at commit (deferred) and updates the
-- one generation row, whose lock is held until that commit ends, so generations are handed out in
-- commit order. A snapshot that sees generation G sees every change recorded under G or earlier.
CREATE TABLE directory_changes (
  gen bigint NOT NULL,
  kind "char" NOT NULL CHECK (kind IN ('a', 't')),  -- 'a': agent id; 't': tenant id (all its agents)
  key text NOT NULL,
  PRIMARY KEY (gen, kind, key)
);

-- The generation once per transaction (as in 0013), and the changed key for each row it wrote.
-- The transaction-local setting holds "<txid>:<generation>" so later rows reuse the generation.
CREATE OR REPLACE FUNCTION directory_generation_bump() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  mine text := current_setting('burrow.directory_gen', true);
  txid text := txid_current()::text;
  g bigint;
  k "char";
  changed text;
BEGIN
  IF mine IS NULL OR split_part(mine, ':', 1) IS DISTINCT FROM txid THEN
    UPDATE directory_generation SET gen = gen + 1 RETURNING gen INTO g;
    PERFORM set_config('burrow.directory_gen', txid || ':' || g::text, true);
  ELSE
    g := split_part(mine, ':', 2)::bigint;
  END IF;
  IF TG_TABLE_NAME = 'tenants' THEN
    k := 't';
    changed := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  ELSIF TG_TABLE_NAME = 'agent_locations' THEN
    k := 'a';
    changed := CASE WHEN TG_OP = 'DELETE' THEN OLD.agent_id ELSE NEW.agent_id END;
  ELSE
    k := 'a';
    changed := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  END IF;
  INSERT INTO directory_changes (gen, kind, key) VALUES (g, k, changed) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

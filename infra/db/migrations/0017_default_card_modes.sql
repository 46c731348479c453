-- An agent without a card, or with a card that omits its default modes, has the default card's
-- (decisions.md §11): text/plain in and out, so contentMode=text/plain finds it as the cards the
-- hub serves say (runtime/protocol/cards.ts: an absent or empty list is text/plain).

CREATE FUNCTION burrow_card_modes(list jsonb) RETURNS jsonb
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN jsonb_typeof(list) = 'array' AND jsonb_array_length(list) > 0 THEN list
                    ELSE '["text/plain"]'::jsonb END $$;

CREATE OR REPLACE FUNCTION agents_directory_fields() RETURNS trigger
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
      FROM (SELECT burrow_card_modes(card -> 'defaultInputModes') AS list
            UNION ALL SELECT burrow_card_modes(card -> 'defaultOutputModes')
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

-- Recompute the agents whose content modes change: those without both lists.
UPDATE agents SET card = card
WHERE burrow_card_modes(card -> 'defaultInputModes') IS DISTINCT FROM card -> 'defaultInputModes'
   OR burrow_card_modes(card -> 'defaultOutputModes') IS DISTINCT FROM card -> 'defaultOutputModes';

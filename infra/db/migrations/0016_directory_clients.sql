-- What existing hub clients read from the directory (issue 20 points 3 and 4; decisions.md §11):
-- an operator's `featured` mark, the links a card declares, and typo tolerance that also holds for
-- short words, where trigram similarity fails ('ecoh' shares no trigram with 'echo').

-- Set only by an operator (`burrow agents feature`). Any agents write moves the directory
-- generation (0014), so kept answers and in-memory copies see the change.
ALTER TABLE agents ADD COLUMN featured boolean NOT NULL DEFAULT false;
CREATE INDEX agents_featured ON agents (id) WHERE featured AND deleted_at IS NULL;

-- An agent's own links, set by PATCH /api/agents/:agentId (`websiteUrl`, `docsUrl`); when null,
-- the directory shows the card's (burrow_card_link).
ALTER TABLE agents
  ADD COLUMN website_url text CHECK (website_url ~* '^https?://[^\s]+$'),
  ADD COLUMN docs_url text CHECK (docs_url ~* '^https?://[^\s]+$');

-- A link a card declares (`documentationUrl`, `provider.url`), when it is an http(s) URL: clients
-- show it as a link, so nothing else (javascript:, data:) is passed on.
CREATE FUNCTION burrow_card_link(value jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN jsonb_typeof(value) = 'string' AND value #>> '{}' ~* '^https?://[^\s]+$'
                    THEN value #>> '{}' END $$;

-- ---- One-letter typos -------------------------------------------------------------------------

-- Every lexicon word of four characters or more, and each of its one-character deletions with the
-- (1-based) position deleted; position 0 is the word itself. Two words are one edit apart
-- (substitution, insertion, deletion, swap of neighbours) exactly when one of the conditions in
-- directory_one_edit below holds between a row here and a deletion of the query word, so a look-up
-- is a few primary-key probes, whatever the lexicon's size. Like the lexicon, never pruned.
CREATE TABLE directory_lexicon_deletions (
  variant text NOT NULL,
  word text NOT NULL,
  pos smallint NOT NULL,
  PRIMARY KEY (variant, word, pos)
);

-- ROWS: a word's length plus one, which the planner cannot know (it would assume 1000).
CREATE FUNCTION burrow_word_deletions(word text) RETURNS TABLE (variant text, pos smallint)
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE ROWS 10
  AS $$
  SELECT word, 0::smallint
  UNION ALL
  SELECT overlay(word PLACING '' FROM i FOR 1), i::smallint FROM generate_series(1, length(word)) i
$$;

CREATE FUNCTION directory_lexicon_deletions_add() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF length(NEW.word) >= 4 THEN
    INSERT INTO directory_lexicon_deletions (variant, word, pos)
    SELECT d.variant, NEW.word, d.pos FROM burrow_word_deletions(NEW.word) d
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER directory_lexicon_deletions
  AFTER INSERT ON directory_lexicon
  FOR EACH ROW EXECUTE FUNCTION directory_lexicon_deletions_add();

INSERT INTO directory_lexicon_deletions (variant, word, pos)
SELECT d.variant, x.word, d.pos
FROM directory_lexicon x, LATERAL burrow_word_deletions(x.word) d
WHERE length(x.word) >= 4
ON CONFLICT DO NOTHING;

-- The lexicon words one edit away from `lexeme` (a query word of three characters or more; the
-- words found have four or more, so a dropped letter of a four-letter name still finds it). With
-- q the query word and w a word, a row (variant, w, pos) meeting q's deletion at position i
-- (0: q itself) means:
--   i = 0, pos > 0: w is q with a letter added;    i > 0, pos = 0: w is q with one letter less;
--   i = pos > 0: one letter replaced;               pos = i + 1 and q[i] = w[i + 1]: neighbours swapped.
CREATE FUNCTION directory_one_edit(lexeme text) RETURNS SETOF text
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  AS $$
  SELECT DISTINCT d.word
  FROM burrow_word_deletions(lexeme) q,
    -- A subquery with a LIMIT is never flattened: each deletion is its own primary-key probe,
    -- never a merge join over the whole table.
    LATERAL (SELECT x.word, x.pos FROM directory_lexicon_deletions x
             WHERE x.variant = q.variant LIMIT 1000) d
  WHERE length(lexeme) >= 3 AND d.word <> lexeme
    AND ((q.pos = 0 AND d.pos > 0)
      OR (q.pos > 0 AND d.pos = 0)
      OR (q.pos > 0 AND d.pos = q.pos)
      OR (q.pos > 0 AND d.pos = q.pos + 1 AND substr(lexeme, q.pos, 1) = substr(d.word, d.pos, 1)))
  ORDER BY d.word
  -- A bound on the query's size; a word of four letters or more has few neighbours one edit away.
  LIMIT 16
$$;

-- As in 0005, plus the words one edit away from each query word that its three nearest words by
-- trigram similarity do not already hold. Alternatives keep 0005's order (the prefix, then the
-- nearest first), then the edits in word order.
CREATE OR REPLACE FUNCTION directory_query(words text[], fuzzy boolean) RETURNS tsquery
  LANGUAGE sql STABLE PARALLEL SAFE
  SET enable_seqscan = off
  AS $$
  WITH term AS (
    SELECT u.ord, l.lexeme
    FROM unnest(words) WITH ORDINALITY AS u(w, ord),
         LATERAL unnest(to_tsvector('english', burrow_fold(u.w))) AS l
  ),
  near AS MATERIALIZED (
    SELECT term.ord, n.word, n.rank
    FROM term, LATERAL (
      SELECT x.word,
        row_number() OVER (ORDER BY similarity(x.word, term.lexeme) DESC, x.word) AS rank
      FROM directory_lexicon x
      WHERE fuzzy AND x.word % term.lexeme AND x.word <> term.lexeme
      ORDER BY similarity(x.word, term.lexeme) DESC, x.word
      LIMIT 3) n
  ),
  alt AS (
    SELECT term.ord, 0 AS kind, 0::bigint AS rank, burrow_tsquery_term(term.lexeme) || ':*' AS q
    FROM term
    UNION ALL
    SELECT near.ord, 1, near.rank, burrow_tsquery_term(near.word) FROM near
    UNION ALL
    SELECT term.ord, 2, 0, burrow_tsquery_term(e.word)
    FROM term, LATERAL directory_one_edit(term.lexeme) e(word)
    WHERE fuzzy AND NOT EXISTS (SELECT 1 FROM near WHERE near.ord = term.ord AND near.word = e.word)
  )
  SELECT string_agg(g, ' & ' ORDER BY ord)::tsquery
  FROM (SELECT ord, '(' || string_agg(q, ' | ' ORDER BY kind, rank, q) || ')' AS g
        FROM alt GROUP BY ord) per_word
$$;

-- Semantic search for the official agents (memory, crm): vectors are stored as real[] (pgvector is
-- not part of this PostgreSQL's contrib) with the id of the embedder that made them, and ranked by
-- their dot product, which is the cosine for the unit vectors every embedder returns.
CREATE OR REPLACE FUNCTION vec_dot(a real[], b real[]) RETURNS double precision
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT coalesce(sum(x::double precision * y), 0) FROM unnest(a, b) AS t(x, y) $$;

-- Extensions later migrations may rely on: trigram similarity and accent folding for text search,
-- cube + earthdistance for distances between coordinates. All ship with PostgreSQL's contrib.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;
